-- CreateTable
CREATE TABLE "Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'team',
    "creditsLimit" INTEGER NOT NULL,
    "creditsUsed" INTEGER NOT NULL DEFAULT 0,
    "billingPeriodStart" DATETIME NOT NULL,
    "billingPeriodEnd" DATETIME NOT NULL,
    "historyDays" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Membership" (
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("teamId", "userId"),
    CONSTRAINT "Membership_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "createdByUserId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "name" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ApiKey_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiKey_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Connection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "displayName" TEXT,
    "externalId" TEXT,
    "ownerUserId" TEXT,
    "credentials" TEXT NOT NULL,
    "rotationKey" TEXT,
    "needsReauthAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Connection_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuthLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "token" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "createdByUserId" TEXT,
    "connectionType" TEXT NOT NULL,
    "externalId" TEXT,
    "redirectUrl" TEXT,
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" DATETIME NOT NULL,
    "consumedAt" DATETIME,
    "connectionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AuthLink_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AuthLink_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "Connection" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Workflow" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "nodes" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Workflow_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WorkflowConnection" (
    "workflowId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,

    PRIMARY KEY ("workflowId", "connectionId"),
    CONSTRAINT "WorkflowConnection_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkflowConnection_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "Connection" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "McpServer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ownerUserId" TEXT,
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "McpServer_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "McpServerConnection" (
    "mcpServerId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,

    PRIMARY KEY ("mcpServerId", "connectionId"),
    CONSTRAINT "McpServerConnection_mcpServerId_fkey" FOREIGN KEY ("mcpServerId") REFERENCES "McpServer" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "McpServerConnection_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "Connection" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OperationLog" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "operationVersion" INTEGER,
    "status" TEXT NOT NULL,
    "sourceType" TEXT NOT NULL,
    "sourceId" TEXT,
    "sourceRunId" TEXT,
    "sourceName" TEXT,
    "userId" TEXT,
    "userEmail" TEXT,
    "startedAt" BIGINT NOT NULL,
    "completedAt" BIGINT,
    "creditsUsed" INTEGER NOT NULL DEFAULT 0,
    "cacheHit" BOOLEAN NOT NULL DEFAULT false,
    "input" TEXT,
    "output" TEXT,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT "OperationLog_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CreditLedgerEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "creditsUsed" INTEGER NOT NULL,
    "creditsRemaining" INTEGER NOT NULL,
    "serviceType" TEXT NOT NULL,
    "serviceId" TEXT,
    "serviceName" TEXT,
    "userId" TEXT,
    "userEmail" TEXT,
    "createdAt" BIGINT NOT NULL,
    CONSTRAINT "CreditLedgerEntry_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_teamId_createdAt_idx" ON "ApiKey"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "Connection_teamId_type_idx" ON "Connection"("teamId", "type");

-- CreateIndex
CREATE INDEX "Connection_teamId_externalId_idx" ON "Connection"("teamId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Connection_teamId_type_rotationKey_key" ON "Connection"("teamId", "type", "rotationKey");

-- CreateIndex
CREATE UNIQUE INDEX "AuthLink_token_key" ON "AuthLink"("token");

-- CreateIndex
CREATE UNIQUE INDEX "AuthLink_connectionId_key" ON "AuthLink"("connectionId");

-- CreateIndex
CREATE INDEX "AuthLink_teamId_createdAt_idx" ON "AuthLink"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "Workflow_teamId_idx" ON "Workflow"("teamId");

-- CreateIndex
CREATE INDEX "WorkflowConnection_connectionId_idx" ON "WorkflowConnection"("connectionId");

-- CreateIndex
CREATE INDEX "McpServer_teamId_idx" ON "McpServer"("teamId");

-- CreateIndex
CREATE INDEX "McpServerConnection_connectionId_idx" ON "McpServerConnection"("connectionId");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_startedAt_id_idx" ON "OperationLog"("teamId", "startedAt", "id");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_sourceType_startedAt_id_idx" ON "OperationLog"("teamId", "sourceType", "startedAt", "id");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_status_startedAt_id_idx" ON "OperationLog"("teamId", "status", "startedAt", "id");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_operationId_startedAt_id_idx" ON "OperationLog"("teamId", "operationId", "startedAt", "id");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_sourceId_startedAt_id_idx" ON "OperationLog"("teamId", "sourceId", "startedAt", "id");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_sourceRunId_startedAt_id_idx" ON "OperationLog"("teamId", "sourceRunId", "startedAt", "id");

-- CreateIndex
CREATE INDEX "CreditLedgerEntry_teamId_createdAt_id_idx" ON "CreditLedgerEntry"("teamId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CreditLedgerEntry_teamId_serviceType_createdAt_id_idx" ON "CreditLedgerEntry"("teamId", "serviceType", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CreditLedgerEntry_teamId_serviceId_createdAt_id_idx" ON "CreditLedgerEntry"("teamId", "serviceId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CreditLedgerEntry_teamId_userId_createdAt_id_idx" ON "CreditLedgerEntry"("teamId", "userId", "createdAt", "id");

