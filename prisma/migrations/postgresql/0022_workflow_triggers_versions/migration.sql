-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "events" TEXT,
ADD COLUMN     "eventsSince" BIGINT,
ADD COLUMN     "triggerType" TEXT NOT NULL DEFAULT 'manual',
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "webhookTokenHash" TEXT;

-- AlterTable
ALTER TABLE "WorkflowRun" ADD COLUMN     "replayOf" TEXT,
ADD COLUMN     "triggerKey" TEXT,
ADD COLUMN     "version" INTEGER;

-- CreateTable
CREATE TABLE "WorkflowVersion" (
    "workflowId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nodes" JSONB NOT NULL,
    "triggerType" TEXT NOT NULL,
    "schedule" TEXT,
    "timezone" TEXT,
    "events" TEXT,
    "createdAt" BIGINT NOT NULL,
    "createdByUserId" TEXT,

    CONSTRAINT "WorkflowVersion_pkey" PRIMARY KEY ("workflowId","version")
);

-- CreateIndex
CREATE UNIQUE INDEX "Workflow_webhookTokenHash_key" ON "Workflow"("webhookTokenHash");

-- CreateIndex
CREATE INDEX "Workflow_teamId_triggerType_active_idx" ON "Workflow"("teamId", "triggerType", "active");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowRun_replayOf_key" ON "WorkflowRun"("replayOf");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowRun_workflowId_triggerKey_key" ON "WorkflowRun"("workflowId", "triggerKey");

-- AddForeignKey
ALTER TABLE "WorkflowVersion" ADD CONSTRAINT "WorkflowVersion_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Existing workflows: a scheduled one is triggered by its schedule; each has its definition as version 1.
UPDATE "Workflow" SET "triggerType" = 'schedule' WHERE "schedule" IS NOT NULL;
INSERT INTO "WorkflowVersion" ("workflowId", "version", "name", "nodes", "triggerType", "schedule", "timezone", "events", "createdAt", "createdByUserId")
SELECT "id", 1, "name", "nodes", "triggerType", "schedule", "timezone", NULL, CAST(EXTRACT(EPOCH FROM "updatedAt") * 1000 AS BIGINT), "createdByUserId" FROM "Workflow";
