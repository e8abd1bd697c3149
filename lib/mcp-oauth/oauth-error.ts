import { json } from "@/lib/http/json";
import { OAUTH_CORS } from "@/lib/mcp-oauth/metadata";

/** An RFC 6749 / 7591 error: `error` is the code a client acts on, `error_description` the sentence for a person. */
export class OAuthError extends Error {
  /** A client's metadata document that could not be fetched at all (not one that answered wrong). */
  unreachable = false;
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** The JSON body OAuth clients read, plus `detail` as every error of this service carries. */
export function oauthErrorResponse(e: OAuthError): Response {
  return json(
    { error: e.code, error_description: e.description, detail: e.description },
    { status: e.status, headers: { ...OAUTH_CORS, pragma: "no-cache" } },
  );
}
