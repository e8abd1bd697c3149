// Plain-markdown pages served at /docs/connections/<type>.md for the Google types.

const oauthClientSteps = (api: string) => `### \`client_id\` and \`client_secret\`: your OAuth client

1. Open the [Google Cloud console](https://console.cloud.google.com/) and pick (or create) the project that will own the connection.
2. **APIs & Services → Library**: search for **${api}** and click **Enable**.
3. **APIs & Services → OAuth consent screen** (Google Auth Platform → Branding / Audience): fill in the app name and support email, choose **External** (or **Internal** for a Google Workspace organisation), and set the publishing status to **In production**. While the app is in *Testing*, Google expires its refresh tokens after 7 days.
4. **APIs & Services → Credentials → Create credentials → OAuth client ID**, application type **Web application**. Add \`https://developers.google.com/oauthplayground\` under **Authorised redirect URIs** (used in the next step).
5. Copy the **Client ID** (ends in \`.apps.googleusercontent.com\`) into \`client_id\` and the **Client secret** (starts with \`GOCSPX-\`) into \`client_secret\`.`;

const refreshTokenSteps = (scope: string) => `### \`refresh_token\`: an offline grant of the account to read

1. Open the [OAuth 2.0 Playground](https://developers.google.com/oauthplayground), click the gear icon, tick **Use your own OAuth credentials** and paste your client ID and secret.
2. In **Step 1**, type the scope \`${scope}\` into the box at the bottom and click **Authorize APIs**.
3. Sign in with the Google account that has access to the data and approve.
4. In **Step 2**, click **Exchange authorization code for tokens** and copy the **Refresh token** (starts with \`1//\`) into \`refresh_token\`.

A refresh token stops working when the account revokes access (myaccount.google.com → Security → Third-party access), changes its password for a Gmail scope, stays unused for six months, or when the client issues more than 100 refresh tokens for the same account (the oldest ones are revoked).`;

const rotationAndErrors = (type: string, fields: string, extraErrors = "") => `## Rotation: posting the same name again

A ${type} connection created from credentials is white-label and is keyed on **type and name**. Posting \`POST /v1/connections\` again with the same \`connection_type\` and \`name\` replaces the stored credentials of that connection in place: the connection ID stays the same, so workflows keep working. A different \`name\` creates a separate connection. White-label connections need the Team plan.

\`\`\`json
{
  "connection_type": "${type}",
  "name": "Acme marketing",
  "credentials": { ${fields} }
}
\`\`\`

## What the errors mean

Patchbay exchanges the refresh token at Google's token endpoint and makes one read call before anything is stored. A 400 carries Google's own reason:

- \`invalid_grant: Token has been expired or revoked.\`: the refresh token no longer works (see above). Issue a new one and post again with the same name.
- \`invalid_client: The OAuth client was not found.\` / \`invalid_client: Unauthorized\`: the client ID does not exist, or the secret does not belong to it.
- \`PERMISSION_DENIED: Request had insufficient authentication scopes.\`: the refresh token was issued without the scope listed below. Repeat the Playground steps with that scope.
${extraErrors}`;

const oauthSection = (scope: string) => `## Connecting through an auth link (OAuth)

Without your own client, create an auth link (\`POST /v1/connections/auth-link\`) and send the end user to its URL. Patchbay's Google client asks for the scopes \`openid\`, \`email\` and \`${scope}\` (offline access, so the connection keeps working), and names the connection after the Google account's email address. Connecting the same Google account again replaces that connection.`;

export const googleDocs = {
  ga4: `# Google Analytics 4

Reads Google Analytics 4 accounts, properties and reports through the Google Analytics Admin and Data APIs.

| field | where it comes from |
|---|---|
| \`client_id\` | The client ID of your Google Cloud OAuth client (steps below). |
| \`client_secret\` | The client secret of the same OAuth client. |
| \`refresh_token\` | A refresh token that client obtained for the Google account with access to the GA4 properties, with the scope \`https://www.googleapis.com/auth/analytics.readonly\`. |

## Where each credential comes from

${oauthClientSteps("Google Analytics Admin API** and **Google Analytics Data API")}

${refreshTokenSteps("https://www.googleapis.com/auth/analytics.readonly")}

The Google account must have at least the **Viewer** role on the GA4 properties (GA4 → Admin → Property access management).

## Scopes

- \`https://www.googleapis.com/auth/analytics.readonly\`: read-only access to Analytics configuration and reports.

Patchbay checks the credentials by listing the account summaries the token can see (\`GET https://analyticsadmin.googleapis.com/v1beta/accountSummaries\`).

${rotationAndErrors("ga4", `"client_id": "…apps.googleusercontent.com", "client_secret": "GOCSPX-…", "refresh_token": "1//…"`)}
${oauthSection("https://www.googleapis.com/auth/analytics.readonly")}
`,

  gads: `# Google Ads

Reads and manages Google Ads accounts through the Google Ads API (v18).

| field | where it comes from |
|---|---|
| \`client_id\` | The client ID of your Google Cloud OAuth client (steps below). |
| \`client_secret\` | The client secret of the same OAuth client. |
| \`refresh_token\` | A refresh token that client obtained for a Google account with access to the Ads accounts, with the scope \`https://www.googleapis.com/auth/adwords\`. |
| \`developer_token\` | The developer token of your Google Ads manager account (API Center). |

## Where each credential comes from

${oauthClientSteps("Google Ads API")}

${refreshTokenSteps("https://www.googleapis.com/auth/adwords")}

### \`developer_token\`: your Google Ads API developer token

1. Sign in to [Google Ads](https://ads.google.com/) with a **manager account** (MCC); create one if you have none.
2. Open **Admin → API Center** (or go to \`https://ads.google.com/aw/apicenter\`). The first time, fill in the API access form and accept the terms.
3. Copy the **Developer token** (22 characters) into \`developer_token\`.
4. Check its **Access level**. A new token has *Test account access* and only works with Google Ads test accounts; click **Apply for Basic access** to use it with real accounts.

The Google account of the refresh token must have access to the Ads accounts you want to read (directly or through the manager account).

## Scopes

- \`https://www.googleapis.com/auth/adwords\`: the one scope of the Google Ads API (read and manage campaigns, reports and account settings).

Patchbay checks the credentials by listing the customers the token can access (\`GET https://googleads.googleapis.com/v18/customers:listAccessibleCustomers\` with the \`developer-token\` header).

${rotationAndErrors(
  "gads",
  `"client_id": "…apps.googleusercontent.com", "client_secret": "GOCSPX-…", "refresh_token": "1//…", "developer_token": "…"`,
  `- \`DEVELOPER_TOKEN_INVALID: The developer token is not valid.\`: copy the token again from the API Center.
- \`DEVELOPER_TOKEN_NOT_APPROVED: …\`: the token only has test-account access; apply for Basic access in the API Center.
`,
)}
${oauthSection("https://www.googleapis.com/auth/adwords")}
`,

  gsc: `# Google Search Console

Reads Search Console sites and search performance (queries, clicks, impressions) through the Search Console API.

| field | where it comes from |
|---|---|
| \`client_id\` | The client ID of your Google Cloud OAuth client (steps below). |
| \`client_secret\` | The client secret of the same OAuth client. |
| \`refresh_token\` | A refresh token that client obtained for the Google account that owns or was added to the Search Console properties, with the scope \`https://www.googleapis.com/auth/webmasters.readonly\`. |

## Where each credential comes from

${oauthClientSteps("Google Search Console API")}

${refreshTokenSteps("https://www.googleapis.com/auth/webmasters.readonly")}

The Google account must be an owner or a user of the properties (Search Console → Settings → Users and permissions).

## Scopes

- \`https://www.googleapis.com/auth/webmasters.readonly\`: read-only access to your Search Console data.

Patchbay checks the credentials by listing the sites the token can see (\`GET https://www.googleapis.com/webmasters/v3/sites\`).

${rotationAndErrors("gsc", `"client_id": "…apps.googleusercontent.com", "client_secret": "GOCSPX-…", "refresh_token": "1//…"`)}
${oauthSection("https://www.googleapis.com/auth/webmasters.readonly")}
`,
} as const;
