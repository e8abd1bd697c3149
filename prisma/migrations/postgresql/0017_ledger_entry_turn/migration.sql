-- AlterTable
ALTER TABLE "CreditLedgerEntry" ADD COLUMN     "turnId" TEXT;

