-- AlterTable
ALTER TABLE "OperationLog" ADD COLUMN "privateToUserId" TEXT;


-- Workflows active before owners' activations were recorded: their creator stands for the owner who set them running.
UPDATE "Workflow" SET "activatedByUserId" = "createdByUserId" WHERE "active" = true AND "activatedByUserId" IS NULL;
