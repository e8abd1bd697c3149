-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL,
    "payload" TEXT NOT NULL,
    "triggersPending" BOOLEAN NOT NULL DEFAULT false,
    "chain" TEXT,
    CONSTRAINT "WebhookEvent_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_WebhookEvent" ("createdAt", "id", "payload", "teamId", "type") SELECT "createdAt", "id", "payload", "teamId", "type" FROM "WebhookEvent";
DROP TABLE "WebhookEvent";
ALTER TABLE "new_WebhookEvent" RENAME TO "WebhookEvent";
CREATE INDEX "WebhookEvent_teamId_createdAt_idx" ON "WebhookEvent"("teamId", "createdAt");
CREATE INDEX "WebhookEvent_triggersPending_createdAt_idx" ON "WebhookEvent"("triggersPending", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

