-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "chain" TEXT,
ADD COLUMN     "triggersPending" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "WebhookEvent_triggersPending_createdAt_idx" ON "WebhookEvent"("triggersPending", "createdAt");

