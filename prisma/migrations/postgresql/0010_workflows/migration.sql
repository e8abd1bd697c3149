-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "createdByUserId" TEXT,
ADD COLUMN     "deactivatedReason" TEXT,
ADD COLUMN     "nextRunAt" BIGINT,
ADD COLUMN     "schedule" TEXT,
ADD COLUMN     "timezone" TEXT;

-- CreateTable
CREATE TABLE "WorkflowRun" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "workflowName" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "slotAt" BIGINT,
    "userId" TEXT,
    "userEmail" TEXT,
    "status" TEXT NOT NULL,
    "dueAt" BIGINT NOT NULL,
    "startedAt" BIGINT,
    "completedAt" BIGINT,
    "leaseUntil" BIGINT,
    "claims" INTEGER NOT NULL DEFAULT 0,
    "nodeIndex" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT '{}',
    "credits" INTEGER,
    "error" TEXT,
    "failedNodeId" TEXT,
    "createdAt" BIGINT NOT NULL,

    CONSTRAINT "WorkflowRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WorkflowRun_status_dueAt_idx" ON "WorkflowRun"("status", "dueAt");

-- CreateIndex
CREATE INDEX "WorkflowRun_status_leaseUntil_idx" ON "WorkflowRun"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "WorkflowRun_workflowId_createdAt_idx" ON "WorkflowRun"("workflowId", "createdAt");

-- CreateIndex
CREATE INDEX "WorkflowRun_teamId_createdAt_idx" ON "WorkflowRun"("teamId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowRun_workflowId_slotAt_key" ON "WorkflowRun"("workflowId", "slotAt");

-- CreateIndex
CREATE INDEX "Workflow_active_nextRunAt_idx" ON "Workflow"("active", "nextRunAt");

-- AddForeignKey
ALTER TABLE "WorkflowRun" ADD CONSTRAINT "WorkflowRun_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowRun" ADD CONSTRAINT "WorkflowRun_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

