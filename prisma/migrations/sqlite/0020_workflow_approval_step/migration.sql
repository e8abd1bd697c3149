-- AlterTable
ALTER TABLE "Approval" ADD COLUMN "workflowId" TEXT;
ALTER TABLE "Approval" ADD COLUMN "workflowItem" TEXT;
ALTER TABLE "Approval" ADD COLUMN "workflowNodeId" TEXT;
ALTER TABLE "Approval" ADD COLUMN "workflowRunId" TEXT;

-- CreateIndex
CREATE INDEX "Approval_workflowRunId_idx" ON "Approval"("workflowRunId");

