-- DropIndex
DROP INDEX "AuthLink_connectionId_key";

-- CreateTable
CREATE TABLE "OAuthAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "authLinkId" TEXT NOT NULL,
    "codeVerifier" TEXT,
    "shop" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" DATETIME,
    CONSTRAINT "OAuthAttempt_authLinkId_fkey" FOREIGN KEY ("authLinkId") REFERENCES "AuthLink" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "OAuthAttempt_authLinkId_idx" ON "OAuthAttempt"("authLinkId");

-- CreateIndex
CREATE INDEX "AuthLink_connectionId_idx" ON "AuthLink"("connectionId");

