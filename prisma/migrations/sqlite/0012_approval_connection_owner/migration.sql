-- AlterTable
ALTER TABLE "Approval" ADD COLUMN "connectionOwnerId" TEXT;

