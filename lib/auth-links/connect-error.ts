/**
 * The stable error codes of the OAuth error redirect (`error=`), documented on the auth-link
 * operation of the API reference. The description is for people; the code is for programs.
 */
export type ConnectErrorCode = "access_denied" | "provider_error" | "link_expired" | "link_used" | "invalid_request";

export class ConnectError extends Error {
  constructor(
    readonly code: ConnectErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}
