-- AlterTable
ALTER TABLE "OAuthAttempt" ADD COLUMN "outcome" TEXT;
ALTER TABLE "OAuthAttempt" ADD COLUMN "outcomeDetail" TEXT;

