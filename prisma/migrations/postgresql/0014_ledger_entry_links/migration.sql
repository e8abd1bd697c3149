-- AlterTable
ALTER TABLE "CreditLedgerEntry" ADD COLUMN     "logId" TEXT,
ADD COLUMN     "runId" TEXT;

