-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "workflowId" TEXT,
ADD COLUMN     "workflowItem" TEXT,
ADD COLUMN     "workflowNodeId" TEXT,
ADD COLUMN     "workflowRunId" TEXT;

-- CreateIndex
CREATE INDEX "Approval_workflowRunId_idx" ON "Approval"("workflowRunId");

