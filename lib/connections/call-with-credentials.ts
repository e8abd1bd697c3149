import "server-only";
import { freshCredentials, markNeedsReauth, type CredentialRow } from "@/lib/connections/fresh-credentials";
import { CredentialRejected, type FreshCredentials } from "@/lib/platforms/kit/types";

/**
 * Runs one provider call with a connection's credentials. When the provider no longer accepts
 * the stored access (a 401 / invalid_token: the user revoked access there, or the token died
 * early), an OAuth connection gets one forced refresh and one retry; if the refresh is refused,
 * or the new token is refused too, the connection is marked as needing re-authorization and the
 * call fails with the same 409 as a refused scheduled refresh. Manual credentials are the
 * caller's own: their rejection is passed on with the provider's reason. `read`: the connection's
 * row as the caller just read it, which spares reading it again.
 */
export async function callWithCredentials<T>(
  teamId: string,
  connectionId: string,
  call: (credentials: FreshCredentials) => Promise<T>,
  read?: CredentialRow,
): Promise<T> {
  const credentials = await freshCredentials(teamId, connectionId, { read });
  try {
    return await call(credentials);
  } catch (e) {
    if (!(e instanceof CredentialRejected) || credentials.kind !== "oauth") throw e;
    const renewed = await freshCredentials(teamId, connectionId, { rejected: e });
    try {
      return await call(renewed);
    } catch (again) {
      if (again instanceof CredentialRejected) throw await markNeedsReauth(connectionId, again);
      throw again;
    }
  }
}
