-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN "activatedByUserId" TEXT;

-- AlterTable
ALTER TABLE "Approval" ADD COLUMN "mcpTokenId" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'team',
    "creditsLimit" INTEGER NOT NULL,
    "creditsUsed" INTEGER NOT NULL DEFAULT 0,
    "billingPeriodStart" DATETIME NOT NULL,
    "billingPeriodEnd" DATETIME NOT NULL,
    "historyDays" INTEGER,
    "lowCreditsPercent" INTEGER NOT NULL DEFAULT 10,
    "creditsLowSentFor" DATETIME,
    "creditsExhaustedSentFor" DATETIME,
    "forbidSelfApproval" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Team" ("billingPeriodEnd", "billingPeriodStart", "createdAt", "creditsExhaustedSentFor", "creditsLimit", "creditsLowSentFor", "creditsUsed", "historyDays", "id", "lowCreditsPercent", "name", "plan") SELECT "billingPeriodEnd", "billingPeriodStart", "createdAt", "creditsExhaustedSentFor", "creditsLimit", "creditsLowSentFor", "creditsUsed", "historyDays", "id", "lowCreditsPercent", "name", "plan" FROM "Team";
DROP TABLE "Team";
ALTER TABLE "new_Team" RENAME TO "Team";
CREATE TABLE "new_WorkflowRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "reservedCredits" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "failedNodeId" TEXT,
    "createdAt" BIGINT NOT NULL,
    CONSTRAINT "WorkflowRun_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkflowRun_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_WorkflowRun" ("claims", "completedAt", "createdAt", "credits", "dueAt", "error", "failedNodeId", "id", "leaseUntil", "nodeIndex", "slotAt", "startedAt", "state", "status", "teamId", "trigger", "userEmail", "userId", "workflowId", "workflowName") SELECT "claims", "completedAt", "createdAt", "credits", "dueAt", "error", "failedNodeId", "id", "leaseUntil", "nodeIndex", "slotAt", "startedAt", "state", "status", "teamId", "trigger", "userEmail", "userId", "workflowId", "workflowName" FROM "WorkflowRun";
DROP TABLE "WorkflowRun";
ALTER TABLE "new_WorkflowRun" RENAME TO "WorkflowRun";
CREATE INDEX "WorkflowRun_status_dueAt_idx" ON "WorkflowRun"("status", "dueAt");
CREATE INDEX "WorkflowRun_status_leaseUntil_idx" ON "WorkflowRun"("status", "leaseUntil");
CREATE INDEX "WorkflowRun_workflowId_createdAt_idx" ON "WorkflowRun"("workflowId", "createdAt");
CREATE INDEX "WorkflowRun_teamId_createdAt_idx" ON "WorkflowRun"("teamId", "createdAt");
CREATE UNIQUE INDEX "WorkflowRun_workflowId_slotAt_key" ON "WorkflowRun"("workflowId", "slotAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

