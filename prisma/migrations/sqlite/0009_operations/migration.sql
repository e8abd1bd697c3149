-- CreateTable
CREATE TABLE "SandboxNote" (
    "account" TEXT NOT NULL PRIMARY KEY,
    "note" TEXT NOT NULL,
    "updatedAt" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    CONSTRAINT "Approval_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Connection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "displayName" TEXT,
    "externalId" TEXT,
    "ownerUserId" TEXT,
    "credentials" TEXT NOT NULL,
    "rotationKey" TEXT,
    "needsReauthAt" DATETIME,
    "readsVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Connection_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Connection" ("createdAt", "credentials", "displayName", "externalId", "id", "needsReauthAt", "ownerUserId", "rotationKey", "teamId", "type", "updatedAt") SELECT "createdAt", "credentials", "displayName", "externalId", "id", "needsReauthAt", "ownerUserId", "rotationKey", "teamId", "type", "updatedAt" FROM "Connection";
DROP TABLE "Connection";
ALTER TABLE "new_Connection" RENAME TO "Connection";
CREATE INDEX "Connection_teamId_type_idx" ON "Connection"("teamId", "type");
CREATE INDEX "Connection_teamId_externalId_idx" ON "Connection"("teamId", "externalId");
CREATE UNIQUE INDEX "Connection_teamId_type_rotationKey_key" ON "Connection"("teamId", "type", "rotationKey");
CREATE TABLE "new_McpServer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ownerUserId" TEXT,
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "writePolicy" TEXT NOT NULL DEFAULT 'off',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "McpServer_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_McpServer" ("createdAt", "id", "isPrivate", "name", "ownerUserId", "teamId", "updatedAt") SELECT "createdAt", "id", "isPrivate", "name", "ownerUserId", "teamId", "updatedAt" FROM "McpServer";
DROP TABLE "McpServer";
ALTER TABLE "new_McpServer" RENAME TO "McpServer";
CREATE INDEX "McpServer_teamId_idx" ON "McpServer"("teamId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Approval_teamId_createdAtMs_idx" ON "Approval"("teamId", "createdAtMs");

-- CreateIndex
CREATE INDEX "Approval_teamId_status_createdAtMs_idx" ON "Approval"("teamId", "status", "createdAtMs");

-- CreateIndex
CREATE INDEX "Approval_status_expiresAt_idx" ON "Approval"("status", "expiresAt");

