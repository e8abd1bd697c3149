-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "agentTurnId" TEXT,
ADD COLUMN     "conversationId" TEXT;

-- CreateTable
CREATE TABLE "AgentConversation" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "userEmail" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "modelConnectionId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "connectionIds" TEXT NOT NULL,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" BIGINT NOT NULL,
    "updatedAt" BIGINT NOT NULL,

    CONSTRAINT "AgentConversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentTurn" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "userEmail" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reply" TEXT,
    "steps" TEXT NOT NULL DEFAULT '[]',
    "messages" TEXT NOT NULL DEFAULT '[]',
    "credits" INTEGER,
    "operationCredits" INTEGER NOT NULL DEFAULT 0,
    "modelCalls" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "waitingApprovalId" TEXT,
    "waitingToolCallId" TEXT,
    "startedAt" BIGINT NOT NULL,
    "leaseUntil" BIGINT,
    "completedAt" BIGINT,

    CONSTRAINT "AgentTurn_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AgentConversation_teamId_updatedAt_idx" ON "AgentConversation"("teamId", "updatedAt");

-- CreateIndex
CREATE INDEX "AgentTurn_status_idx" ON "AgentTurn"("status");

-- CreateIndex
CREATE UNIQUE INDEX "AgentTurn_conversationId_seq_key" ON "AgentTurn"("conversationId", "seq");

-- CreateIndex
CREATE INDEX "Approval_agentTurnId_idx" ON "Approval"("agentTurnId");

-- AddForeignKey
ALTER TABLE "AgentConversation" ADD CONSTRAINT "AgentConversation_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentTurn" ADD CONSTRAINT "AgentTurn_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "AgentConversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

