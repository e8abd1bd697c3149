-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "writesAllowedByUserId" TEXT;


-- Who set the servers that are already `allowed`: the person who last set it, from the audit
-- log (a dashboard change or the server's creation), else the server's owner.
UPDATE "McpServer" SET "writesAllowedByUserId" = COALESCE(
  (SELECT a."actorUserId" FROM "AuditEvent" a
    WHERE a."teamId" = "McpServer"."teamId" AND a."targetType" = 'mcp_server' AND a."targetId" = "McpServer"."id"
      AND a."actorUserId" IS NOT NULL
      AND ((a."action" = 'mcp_server.write_policy_change' AND (a."details"::jsonb ->> 'to') = 'allowed')
        OR (a."action" = 'mcp_server.create' AND (a."details"::jsonb ->> 'write_policy') = 'allowed'))
    ORDER BY a."createdAt" DESC, a."id" DESC LIMIT 1),
  "ownerUserId")
WHERE "writePolicy" = 'allowed';
