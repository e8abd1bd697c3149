-- CreateTable
CREATE TABLE "SandboxRevokedGrant" (
    "grant" TEXT NOT NULL,
    "revokedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxRevokedGrant_pkey" PRIMARY KEY ("grant")
);

