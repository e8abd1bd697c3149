-- AlterTable
ALTER TABLE "OperationLog" ADD COLUMN "connectionId" TEXT;

-- CreateTable
CREATE TABLE "UsageAttribution" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "ledgerEntryId" INTEGER NOT NULL,
    "connectionId" TEXT,
    "credits" INTEGER NOT NULL,
    "createdAt" BIGINT NOT NULL,
    CONSTRAINT "UsageAttribution_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SandboxOutage" (
    "account" TEXT NOT NULL PRIMARY KEY,
    "since" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SandboxRefresh" (
    "grant" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL DEFAULT 0
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
    "accountId" TEXT,
    "health" TEXT NOT NULL DEFAULT 'healthy',
    "healthError" TEXT,
    "checkedAt" BIGINT,
    "nextCheckAt" BIGINT,
    "lastUsedAt" BIGINT,
    "refreshingUntil" BIGINT,
    "tokenExpiresAt" BIGINT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Connection_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Connection" ("createdAt", "credentials", "displayName", "externalId", "id", "needsReauthAt", "ownerUserId", "readsVersion", "rotationKey", "teamId", "type", "updatedAt") SELECT "createdAt", "credentials", "displayName", "externalId", "id", "needsReauthAt", "ownerUserId", "readsVersion", "rotationKey", "teamId", "type", "updatedAt" FROM "Connection";
DROP TABLE "Connection";
ALTER TABLE "new_Connection" RENAME TO "Connection";
CREATE INDEX "Connection_teamId_type_idx" ON "Connection"("teamId", "type");
CREATE INDEX "Connection_teamId_externalId_idx" ON "Connection"("teamId", "externalId");
CREATE INDEX "Connection_teamId_type_accountId_idx" ON "Connection"("teamId", "type", "accountId");
CREATE INDEX "Connection_nextCheckAt_idx" ON "Connection"("nextCheckAt");
CREATE INDEX "Connection_tokenExpiresAt_idx" ON "Connection"("tokenExpiresAt");
CREATE UNIQUE INDEX "Connection_teamId_type_rotationKey_key" ON "Connection"("teamId", "type", "rotationKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "UsageAttribution_teamId_createdAt_connectionId_credits_idx" ON "UsageAttribution"("teamId", "createdAt", "connectionId", "credits");

-- CreateIndex
CREATE INDEX "UsageAttribution_teamId_connectionId_createdAt_idx" ON "UsageAttribution"("teamId", "connectionId", "createdAt");

-- CreateIndex
CREATE INDEX "UsageAttribution_ledgerEntryId_idx" ON "UsageAttribution"("ledgerEntryId");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_connectionId_startedAt_idx" ON "OperationLog"("teamId", "connectionId", "startedAt");


-- Connections already refused by their provider start as needs_reauth.
UPDATE "Connection" SET "health" = 'needs_reauth' WHERE "needsReauthAt" IS NOT NULL;
