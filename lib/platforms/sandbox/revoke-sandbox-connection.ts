import "server-only";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { decryptJson } from "@/lib/security/encryption";
import { revokeGrant } from "@/lib/platforms/sandbox/sandbox-grants";

const REVOCABLE = ["sandbox_oauth", "sandbox_whitelabel"];

/**
 * `sandbox revoke --connection ID` (CONTRACT §4): what a user does at a real provider's security
 * page, for the grant behind a sandbox connection. Its refresh token and access tokens stop
 * working at the sandbox; Patchbay learns it only when it next uses the connection.
 */
export async function revokeSandboxConnection(connectionId: string): Promise<{ revoked: true }> {
  const row = await db.connection.findUnique({
    where: { id: connectionId },
    select: { type: true, credentials: true },
  });
  if (!row) throw new ApiError(404, `No connection ${connectionId}.`);
  if (!REVOCABLE.includes(row.type)) {
    throw new ApiError(
      400,
      `${connectionId} is a ${row.type} connection: only ${REVOCABLE.join(" and ")} connections stand on a grant the sandbox can revoke.`,
    );
  }
  const stored = decryptJson<{ oauth?: { refreshToken?: string | null }; refresh_token?: string }>(
    row.credentials,
    `connection:${connectionId}`,
  );
  const refreshToken = stored.oauth?.refreshToken ?? stored.refresh_token;
  if (!refreshToken) throw new ApiError(400, `${connectionId} holds no refresh token, so there is no grant to revoke.`);
  await revokeGrant(refreshToken);
  return { revoked: true };
}
