-- AlterTable
ALTER TABLE "OAuthAttempt" ADD COLUMN "browserHash" TEXT;

-- CreateTable
CREATE TABLE "SsoIdentity" (
    "provider" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("provider", "subject"),
    CONSTRAINT "SsoIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT,
    "passwordFromInvite" BOOLEAN NOT NULL DEFAULT false,
    "sessionEpoch" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_User" ("createdAt", "email", "id", "name", "passwordHash") SELECT "createdAt", "email", "id", "name", "passwordHash" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE TABLE "new_Invite" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "createdByUserId" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    "acceptedUserId" TEXT,
    "revokedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Invite_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Open links keep working: their tokens become their SHA-256 (lib/db/migrate.ts registers the function).
INSERT INTO "new_Invite" ("tokenHash", "acceptedAt", "acceptedUserId", "createdAt", "createdByUserId", "email", "expiresAt", "id", "revokedAt", "role", "teamId") SELECT patchbay_sha256_hex("token"), "acceptedAt", "acceptedUserId", "createdAt", "createdByUserId", "email", "expiresAt", "id", "revokedAt", "role", "teamId" FROM "Invite";
DROP TABLE "Invite";
ALTER TABLE "new_Invite" RENAME TO "Invite";
CREATE UNIQUE INDEX "Invite_tokenHash_key" ON "Invite"("tokenHash");
CREATE INDEX "Invite_teamId_createdAt_idx" ON "Invite"("teamId", "createdAt");
CREATE TABLE "new_AuthLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "tokenSealed" TEXT,
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
INSERT INTO "new_AuthLink" ("tokenHash", "connectionId", "connectionType", "consumedAt", "createdAt", "createdByUserId", "expiresAt", "externalId", "id", "isPrivate", "redirectUrl", "teamId", "updatedAt") SELECT patchbay_sha256_hex("token"), "connectionId", "connectionType", "consumedAt", "createdAt", "createdByUserId", "expiresAt", "externalId", "id", "isPrivate", "redirectUrl", "teamId", "updatedAt" FROM "AuthLink";
DROP TABLE "AuthLink";
ALTER TABLE "new_AuthLink" RENAME TO "AuthLink";
CREATE UNIQUE INDEX "AuthLink_tokenHash_key" ON "AuthLink"("tokenHash");
CREATE INDEX "AuthLink_teamId_createdAt_idx" ON "AuthLink"("teamId", "createdAt");
CREATE INDEX "AuthLink_connectionId_idx" ON "AuthLink"("connectionId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "SsoIdentity_userId_idx" ON "SsoIdentity"("userId");

