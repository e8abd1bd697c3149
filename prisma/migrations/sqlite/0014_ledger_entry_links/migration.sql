-- AlterTable
ALTER TABLE "CreditLedgerEntry" ADD COLUMN "logId" TEXT;
ALTER TABLE "CreditLedgerEntry" ADD COLUMN "runId" TEXT;

