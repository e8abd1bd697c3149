-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "forbidSelfApproval" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "activatedByUserId" TEXT;

-- AlterTable
ALTER TABLE "WorkflowRun" ADD COLUMN     "reservedCredits" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "mcpTokenId" TEXT;

