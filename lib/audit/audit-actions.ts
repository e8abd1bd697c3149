// Every action the audit log records; the dashboard's filter offers exactly these.
export const AUDIT_ACTIONS = [
  "api_key.create",
  "api_key.revoke",
  "connection.create",
  "connection.replace",
  "connection.delete",
  "auth_link.create",
  "invite.create",
  "invite.revoke",
  "invite.accept",
  "member.role_change",
  "member.remove",
  "member.leave",
  "mcp_server.create",
  "mcp_server.update",
  "mcp_server.delete",
  "mcp_token.create",
  "mcp_token.revoke",
  "webhook_endpoint.create",
  "webhook_endpoint.update",
  "webhook_endpoint.rotate_secret",
  "webhook_endpoint.delete",
  "webhook_endpoint.disable",
  "team.low_credits_change",
  "user.sign_out_everywhere",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
