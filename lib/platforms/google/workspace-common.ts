import "server-only";
import { z } from "zod";
import { googleApiCall } from "@/lib/platforms/google/google-provider";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { CredentialRejected, ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";

// Pieces the Workspace products (Sheets, Drive, Slides, BigQuery) share: file IDs as people
// paste them (a bare ID or the document's URL), and the parts of their docs pages.

export const PROVIDER = "Google";

/**
 * A Drive file ID (spreadsheets, presentations and documents are Drive files), or the URL of the
 * file as the browser shows it (…/d/<id>/edit, …/folders/<id>, ?id=<id>): the ID is taken from it.
 */
export const driveFileId = (what: string) =>
  z
    .string()
    .trim()
    .max(500)
    .transform(
      (v) => /\/(?:d|folders)\/([A-Za-z0-9_-]{10,})/.exec(v)?.[1] ?? /[?&]id=([A-Za-z0-9_-]{10,})/.exec(v)?.[1] ?? v,
    )
    .pipe(z.string().regex(/^[A-Za-z0-9_-]{10,200}$/, `must be a Google ${what} ID (or its URL)`));

/**
 * googleApiCall, plus the rate limits Drive and BigQuery answer with 403 rather than 429
 * (reasons userRateLimitExceeded, rateLimitExceeded, quotaExceeded): Google's quota, not a refusal.
 * https://developers.google.com/workspace/drive/api/guides/limits and https://cloud.google.com/bigquery/docs/error-messages
 */
export async function workspaceApiCall(...args: Parameters<typeof googleApiCall>) {
  try {
    return await googleApiCall(...args);
  } catch (e) {
    if (
      e instanceof ProviderRejection &&
      !(e instanceof CredentialRejected) &&
      /\b(user rate limit exceeded|rate limit exceeded|exceeded rate limits|quota exceeded)\b/i.test(e.reason)
    )
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER}'s rate limit was reached (${e.reason.replace(/[.]+$/, "")}).`,
      );
    throw e;
  }
}

/** A value of a Google answer as a string, or null. */
export const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
/** Google sends int64 fields as strings: a number when exact, else the string. */
export const count = (v: unknown): number | string | null => {
  if (typeof v === "number") return v;
  if (typeof v !== "string" || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
};
export const objectOr = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
export const quoted = (name: unknown) => (typeof name === "string" && name ? ` '${name}'` : "");

// ---- docs pages ----

const CREDENTIALS_EXAMPLE = `"client_id": "…apps.googleusercontent.com", "client_secret": "GOCSPX-…", "refresh_token": "1//…"`;

export const credentialTable = (scopes: string[], whose: string) => `| field | where it comes from |
|---|---|
| \`client_id\` | The client ID of your Google Cloud OAuth client (steps below). |
| \`client_secret\` | The client secret of the same OAuth client. |
| \`refresh_token\` | A refresh token that client obtained for ${whose}, with the scope${scopes.length > 1 ? "s" : ""} ${scopes.map((s) => `\`${s}\``).join(" and ")}. |`;

export const oauthClientSteps = (api: string) => `### \`client_id\` and \`client_secret\`: your OAuth client

1. Open the [Google Cloud console](https://console.cloud.google.com/) and pick (or create) the project that will own the connection.
2. **APIs & Services → Library**: search for **${api}** and click **Enable**.
3. **APIs & Services → OAuth consent screen** (Google Auth Platform → Branding / Audience): fill in the app name and support email, choose **External** (or **Internal** for a Google Workspace organisation), and set the publishing status to **In production**. While the app is in *Testing*, Google expires its refresh tokens after 7 days.
4. **APIs & Services → Credentials → Create credentials → OAuth client ID**, application type **Web application**. Add \`https://developers.google.com/oauthplayground\` under **Authorised redirect URIs** (used in the next step).
5. Copy the **Client ID** (ends in \`.apps.googleusercontent.com\`) into \`client_id\` and the **Client secret** (starts with \`GOCSPX-\`) into \`client_secret\`.`;

export const refreshTokenSteps = (scopes: string[]) => `### \`refresh_token\`: an offline grant of the Google account

1. Open the [OAuth 2.0 Playground](https://developers.google.com/oauthplayground), click the gear icon, tick **Use your own OAuth credentials** and paste your client ID and secret.
2. In **Step 1**, type ${scopes.length > 1 ? "the scopes" : "the scope"} ${scopes.map((s) => `\`${s}\``).join(" ")} into the box at the bottom${scopes.length > 1 ? " (separated by a space)" : ""} and click **Authorize APIs**.
3. Sign in with the Google account whose files or data Patchbay should reach and approve.
4. In **Step 2**, click **Exchange authorization code for tokens** and copy the **Refresh token** (starts with \`1//\`) into \`refresh_token\`.

A refresh token stops working when the account revokes access (myaccount.google.com → Security → Third-party access), stays unused for six months, or when the client issues more than 100 refresh tokens for the same account (the oldest ones are revoked).`;

export const rotationAndErrors = (type: string) => `## Rotation: posting the same name again

A ${type} connection created from credentials is white-label and is keyed on **type and name**. Posting \`POST /v1/connections\` again with the same \`connection_type\` and \`name\` replaces the stored credentials of that connection in place: the connection ID stays the same, so workflows keep working. A different \`name\` creates a separate connection. White-label connections need the Team plan.

\`\`\`json
{
  "connection_type": "${type}",
  "name": "Acme reporting",
  "credentials": { ${CREDENTIALS_EXAMPLE} }
}
\`\`\`

An OAuth connection is keyed on the Google account: connecting the same account again through a new auth link replaces its tokens and keeps the connection ID. Google's access tokens expire after an hour; Patchbay refreshes them with the refresh token, which Google does not rotate.

## What the errors mean

Patchbay exchanges the refresh token at Google's token endpoint and makes one read call before anything is stored. A 400 carries Google's own reason:

- \`invalid_grant: Token has been expired or revoked.\`: the refresh token no longer works (see above). Issue a new one and post again with the same name.
- \`invalid_client: The OAuth client was not found.\` / \`invalid_client: Unauthorized\`: the client ID does not exist, or the secret does not belong to it.
- \`PERMISSION_DENIED: Request had insufficient authentication scopes.\`: the refresh token was issued without the scopes listed below. Repeat the Playground steps with them.`;

export const oauthSection = (scopes: string[]) => `## Connecting through an auth link (OAuth)

Without your own client, create an auth link (\`POST /v1/connections/auth-link\`) and send the end user to its URL. Patchbay's Google client asks for the scopes \`openid\`, \`email\` and ${scopes.map((s) => `\`${s}\``).join(", ")} (offline access, so the connection keeps working), and names the connection after the Google account's email address. Connecting the same Google account again replaces that connection.`;
