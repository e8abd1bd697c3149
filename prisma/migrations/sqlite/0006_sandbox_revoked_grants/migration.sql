-- CreateTable
CREATE TABLE "SandboxRevokedGrant" (
    "grant" TEXT NOT NULL PRIMARY KEY,
    "revokedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

