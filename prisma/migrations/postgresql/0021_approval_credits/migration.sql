-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "credits" INTEGER;

