// Shared pieces of the docs pages of the Google marketing products (served at
// /docs/connections/<type>.md): the white-label credential steps and the rotation section.

/** The credential table and the steps to get each field, for a Google API and one or more scopes. */
export function whiteLabelSteps(api: string, scopes: readonly string[], account: string) {
  const scopeList = scopes.map((s) => `\`${s}\``).join(" and ");
  return `## Connecting with your own Google client (white-label)

| field | where it comes from |
|---|---|
| \`client_id\` | The client ID of your Google Cloud OAuth client (steps below). |
| \`client_secret\` | The client secret of the same OAuth client. |
| \`refresh_token\` | A refresh token that client obtained for ${account}, with the scope${scopes.length > 1 ? "s" : ""} ${scopeList}. |

### \`client_id\` and \`client_secret\`: your OAuth client

1. Open the [Google Cloud console](https://console.cloud.google.com/) and pick (or create) the project that will own the connection.
2. **APIs & Services → Library**: search for **${api}** and click **Enable**.
3. **APIs & Services → OAuth consent screen**: fill in the app name and support email, choose **External** (or **Internal** for a Google Workspace organisation) and set the publishing status to **In production**. While the app is in *Testing*, Google expires its refresh tokens after 7 days.
4. **APIs & Services → Credentials → Create credentials → OAuth client ID**, application type **Web application**. Add \`https://developers.google.com/oauthplayground\` under **Authorised redirect URIs**.
5. Copy the **Client ID** (ends in \`.apps.googleusercontent.com\`) into \`client_id\` and the **Client secret** (starts with \`GOCSPX-\`) into \`client_secret\`.

### \`refresh_token\`: an offline grant of the account

1. Open the [OAuth 2.0 Playground](https://developers.google.com/oauthplayground), click the gear icon, tick **Use your own OAuth credentials** and paste your client ID and secret.
2. In **Step 1**, type ${scopeList} into the box at the bottom (separated by a space) and click **Authorize APIs**.
3. Sign in with ${account} and approve.
4. In **Step 2**, click **Exchange authorization code for tokens** and copy the **Refresh token** (starts with \`1//\`) into \`refresh_token\`.

A refresh token stops working when the account revokes access (myaccount.google.com → Security → Third-party access), stays unused for six months, or when the client issues more than 100 refresh tokens for the same account (the oldest ones are revoked).`;
}

/** Rotation and the meaning of Google's refusals, for a white-label type. */
export function rotationAndErrors(type: string, scopes: readonly string[]) {
  return `## Rotation

A ${type} connection made from credentials is white-label and keyed on **type and name**: posting \`POST /v1/connections\` again with the same \`connection_type\` and \`name\` replaces the stored credentials in place (the connection ID stays, so workflows keep working); another \`name\` creates a separate connection. White-label connections need the Team plan.

\`\`\`json
{
  "connection_type": "${type}",
  "name": "Acme marketing",
  "credentials": { "client_id": "…apps.googleusercontent.com", "client_secret": "GOCSPX-…", "refresh_token": "1//…" }
}
\`\`\`

A connection made through an auth link is keyed on the **Google account**: connecting the same account again replaces its tokens and keeps the connection ID. Google's access tokens last an hour; Patchbay refreshes them with the refresh token.

## What the errors mean

Patchbay exchanges the refresh token at Google's token endpoint and makes one read call of the product's API before anything is stored. A 400 carries Google's own reason:

- \`invalid_grant: Token has been expired or revoked.\`: the refresh token no longer works. Issue a new one and post again with the same name.
- \`invalid_client: The OAuth client was not found.\` / \`invalid_client: Unauthorized\`: the client ID does not exist, or the secret does not belong to it.
- \`PERMISSION_DENIED: Request had insufficient authentication scopes.\`: the refresh token was issued without ${scopes.map((s) => `\`${s}\``).join(" and ")}. Repeat the Playground steps with ${scopes.length > 1 ? "them" : "it"}.
- \`RESOURCE_EXHAUSTED: Quota exceeded …\` (HTTP 429): Google's rate limit; Patchbay waits and retries short waits, and reports longer ones.`;
}

/** The auth-link section: the scopes Patchbay's Google client asks for. */
export function oauthSection(scopes: readonly string[]) {
  return `## Connecting through an auth link (OAuth)

Create an auth link (\`POST /v1/connections/auth-link\` with this \`connection_type\`) and send the end user to its URL. Patchbay's Google client asks for \`openid\`, \`email\` and ${scopes.map((s) => `\`${s}\``).join(", ")} (offline access, so the connection keeps working) and names the connection after the Google account's email address.`;
}
