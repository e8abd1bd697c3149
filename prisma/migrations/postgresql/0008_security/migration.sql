-- DropIndex
DROP INDEX "Invite_token_key";

-- DropIndex
DROP INDEX "AuthLink_token_key";

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "passwordFromInvite" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "sessionEpoch" INTEGER NOT NULL DEFAULT 0;

-- AlterTable: open links keep working, their tokens become their SHA-256.
ALTER TABLE "Invite" ADD COLUMN "tokenHash" TEXT;
UPDATE "Invite" SET "tokenHash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');
ALTER TABLE "Invite" ALTER COLUMN "tokenHash" SET NOT NULL, DROP COLUMN "token";

-- AlterTable
ALTER TABLE "AuthLink" ADD COLUMN "tokenHash" TEXT, ADD COLUMN "tokenSealed" TEXT;
UPDATE "AuthLink" SET "tokenHash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');
ALTER TABLE "AuthLink" ALTER COLUMN "tokenHash" SET NOT NULL, DROP COLUMN "token";

-- AlterTable
ALTER TABLE "OAuthAttempt" ADD COLUMN     "browserHash" TEXT;

-- CreateTable
CREATE TABLE "SsoIdentity" (
    "provider" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SsoIdentity_pkey" PRIMARY KEY ("provider","subject")
);

-- CreateIndex
CREATE INDEX "SsoIdentity_userId_idx" ON "SsoIdentity"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Invite_tokenHash_key" ON "Invite"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "AuthLink_tokenHash_key" ON "AuthLink"("tokenHash");

-- AddForeignKey
ALTER TABLE "SsoIdentity" ADD CONSTRAINT "SsoIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

