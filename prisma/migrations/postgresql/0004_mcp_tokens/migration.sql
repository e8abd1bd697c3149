-- CreateTable
CREATE TABLE "McpToken" (
    "id" TEXT NOT NULL,
    "mcpServerId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "name" TEXT,
    "createdByUserId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "McpToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "McpToken_hash_key" ON "McpToken"("hash");

-- CreateIndex
CREATE INDEX "McpToken_mcpServerId_idx" ON "McpToken"("mcpServerId");

-- AddForeignKey
ALTER TABLE "McpToken" ADD CONSTRAINT "McpToken_mcpServerId_fkey" FOREIGN KEY ("mcpServerId") REFERENCES "McpServer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

