-- AlterTable
ALTER TABLE "OAuthAttempt" ADD COLUMN     "outcome" TEXT,
ADD COLUMN     "outcomeDetail" TEXT;

