-- AlterTable
ALTER TABLE "WorkflowRun" ADD COLUMN "replayOf" TEXT;
ALTER TABLE "WorkflowRun" ADD COLUMN "triggerKey" TEXT;
ALTER TABLE "WorkflowRun" ADD COLUMN "version" INTEGER;

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

    PRIMARY KEY ("workflowId", "version"),
    CONSTRAINT "WorkflowVersion_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Workflow" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "nodes" JSONB NOT NULL,
    "schedule" TEXT,
    "timezone" TEXT,
    "nextRunAt" BIGINT,
    "createdByUserId" TEXT,
    "activatedByUserId" TEXT,
    "deactivatedReason" TEXT,
    "triggerType" TEXT NOT NULL DEFAULT 'manual',
    "events" TEXT,
    "eventsSince" BIGINT,
    "webhookTokenHash" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Workflow_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Workflow" ("activatedByUserId", "active", "createdAt", "createdByUserId", "deactivatedReason", "id", "name", "nextRunAt", "nodes", "schedule", "teamId", "timezone", "updatedAt") SELECT "activatedByUserId", "active", "createdAt", "createdByUserId", "deactivatedReason", "id", "name", "nextRunAt", "nodes", "schedule", "teamId", "timezone", "updatedAt" FROM "Workflow";
DROP TABLE "Workflow";
ALTER TABLE "new_Workflow" RENAME TO "Workflow";
CREATE UNIQUE INDEX "Workflow_webhookTokenHash_key" ON "Workflow"("webhookTokenHash");
CREATE INDEX "Workflow_teamId_idx" ON "Workflow"("teamId");
CREATE INDEX "Workflow_active_nextRunAt_idx" ON "Workflow"("active", "nextRunAt");
CREATE INDEX "Workflow_teamId_triggerType_active_idx" ON "Workflow"("teamId", "triggerType", "active");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowRun_replayOf_key" ON "WorkflowRun"("replayOf");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowRun_workflowId_triggerKey_key" ON "WorkflowRun"("workflowId", "triggerKey");


-- Existing workflows: a scheduled one is triggered by its schedule; each has its definition as version 1.
UPDATE "Workflow" SET "triggerType" = 'schedule' WHERE "schedule" IS NOT NULL;
INSERT INTO "WorkflowVersion" ("workflowId", "version", "name", "nodes", "triggerType", "schedule", "timezone", "events", "createdAt", "createdByUserId")
SELECT "id", 1, "name", "nodes", "triggerType", "schedule", "timezone", NULL, CASE WHEN typeof("updatedAt") = 'integer' THEN "updatedAt" ELSE CAST(strftime('%s', "updatedAt") AS INTEGER) * 1000 END, "createdByUserId" FROM "Workflow";
