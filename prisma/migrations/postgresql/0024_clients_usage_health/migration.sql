-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "accountId" TEXT,
ADD COLUMN     "checkedAt" BIGINT,
ADD COLUMN     "health" TEXT NOT NULL DEFAULT 'healthy',
ADD COLUMN     "healthError" TEXT,
ADD COLUMN     "lastUsedAt" BIGINT,
ADD COLUMN     "nextCheckAt" BIGINT,
ADD COLUMN     "refreshingUntil" BIGINT,
ADD COLUMN     "tokenExpiresAt" BIGINT;

-- AlterTable
ALTER TABLE "OperationLog" ADD COLUMN     "connectionId" TEXT;

-- CreateTable
CREATE TABLE "UsageAttribution" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "ledgerEntryId" INTEGER NOT NULL,
    "connectionId" TEXT,
    "credits" INTEGER NOT NULL,
    "createdAt" BIGINT NOT NULL,

    CONSTRAINT "UsageAttribution_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxOutage" (
    "account" TEXT NOT NULL,
    "since" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxOutage_pkey" PRIMARY KEY ("account")
);

-- CreateTable
CREATE TABLE "SandboxRefresh" (
    "grant" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SandboxRefresh_pkey" PRIMARY KEY ("grant")
);

-- CreateIndex
CREATE INDEX "UsageAttribution_teamId_createdAt_connectionId_credits_idx" ON "UsageAttribution"("teamId", "createdAt", "connectionId", "credits");

-- CreateIndex
CREATE INDEX "UsageAttribution_teamId_connectionId_createdAt_idx" ON "UsageAttribution"("teamId", "connectionId", "createdAt");

-- CreateIndex
CREATE INDEX "UsageAttribution_ledgerEntryId_idx" ON "UsageAttribution"("ledgerEntryId");

-- CreateIndex
CREATE INDEX "Connection_teamId_type_accountId_idx" ON "Connection"("teamId", "type", "accountId");

-- CreateIndex
CREATE INDEX "Connection_nextCheckAt_idx" ON "Connection"("nextCheckAt");

-- CreateIndex
CREATE INDEX "Connection_tokenExpiresAt_idx" ON "Connection"("tokenExpiresAt");

-- CreateIndex
CREATE INDEX "OperationLog_teamId_connectionId_startedAt_idx" ON "OperationLog"("teamId", "connectionId", "startedAt");

-- AddForeignKey
ALTER TABLE "UsageAttribution" ADD CONSTRAINT "UsageAttribution_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Connections already refused by their provider start as needs_reauth.
UPDATE "Connection" SET "health" = 'needs_reauth' WHERE "needsReauthAt" IS NOT NULL;
