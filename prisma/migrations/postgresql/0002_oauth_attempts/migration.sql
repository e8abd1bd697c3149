-- DropIndex
DROP INDEX "AuthLink_connectionId_key";

-- CreateTable
CREATE TABLE "OAuthAttempt" (
    "id" TEXT NOT NULL,
    "authLinkId" TEXT NOT NULL,
    "codeVerifier" TEXT,
    "shop" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "OAuthAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OAuthAttempt_authLinkId_idx" ON "OAuthAttempt"("authLinkId");

-- CreateIndex
CREATE INDEX "AuthLink_connectionId_idx" ON "AuthLink"("connectionId");

-- AddForeignKey
ALTER TABLE "OAuthAttempt" ADD CONSTRAINT "OAuthAttempt_authLinkId_fkey" FOREIGN KEY ("authLinkId") REFERENCES "AuthLink"("id") ON DELETE CASCADE ON UPDATE CASCADE;

