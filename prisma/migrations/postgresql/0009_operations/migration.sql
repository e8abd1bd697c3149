-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "readsVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "writePolicy" TEXT NOT NULL DEFAULT 'off';

-- CreateTable
CREATE TABLE "SandboxNote" (
    "account" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "updatedAt" BIGINT NOT NULL,

    CONSTRAINT "SandboxNote_pkey" PRIMARY KEY ("account")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "operationVersion" INTEGER NOT NULL,
    "connectionId" TEXT NOT NULL,
    "connectionType" TEXT NOT NULL,
    "connectionName" TEXT,
    "connectionAccount" TEXT,
    "input" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "before" TEXT,
    "mcpServerId" TEXT,
    "mcpServerName" TEXT,
    "requestedById" TEXT,
    "requestedByEmail" TEXT,
    "createdAtMs" BIGINT NOT NULL,
    "expiresAt" BIGINT NOT NULL,
    "decidedById" TEXT,
    "decidedByEmail" TEXT,
    "decidedAt" BIGINT,
    "note" TEXT,
    "result" TEXT,
    "error" TEXT,
    "logId" TEXT,

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Approval_teamId_createdAtMs_idx" ON "Approval"("teamId", "createdAtMs");

-- CreateIndex
CREATE INDEX "Approval_teamId_status_createdAtMs_idx" ON "Approval"("teamId", "status", "createdAtMs");

-- CreateIndex
CREATE INDEX "Approval_status_expiresAt_idx" ON "Approval"("status", "expiresAt");

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

