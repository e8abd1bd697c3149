// Plain-markdown page served at /docs/connections/microsoft_ads.md.

export const microsoftDocs = {
  microsoft_ads: `# Microsoft Advertising

Reads Microsoft Advertising (formerly Bing Ads) customers, ad accounts, campaigns and campaign performance reports, and pauses, enables and re-budgets campaigns, through the Bing Ads API v13 (REST).

This type takes **no credentials**: \`POST /v1/connections\` rejects it. Connections go through Patchbay's Microsoft Advertising app.

## Server configuration

Besides the OAuth app (\`OAUTH_MICROSOFT_CLIENT_ID\` / \`OAUTH_MICROSOFT_CLIENT_SECRET\`, an app registered in the Azure portal for "accounts in any organizational directory and personal Microsoft accounts", with \`\${APP_URL}/oauth/callback\` as a Web redirect URI), every API call needs Patchbay's **developer token**: set \`MICROSOFT_ADS_DEVELOPER_TOKEN\` (Microsoft Advertising → Developer portal → Request token). Without it, connecting and every operation are refused.

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "microsoft_ads"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the end user to the link's \`url\`. They sign in with the Microsoft account (personal, or work or school) they use for Microsoft Advertising, complete multi-factor authentication, and accept the permissions.
3. The connection is created and named after the user's email (or user name). Every customer and ad account the user can reach in Microsoft Advertising is available: \`microsoft_ads.accounts.list\` lists them.

The operations on campaigns take an \`account_id\` (the account ID, not the account number) and, when the user is in several customers, a \`customer_id\`.

## Scopes requested

- \`https://ads.microsoft.com/msads.manage\`: manage the user's Microsoft Advertising accounts (read campaigns and reports; pause, enable and re-budget campaigns when an agent's write is approved or a workflow runs one).
- \`offline_access\`: a refresh token, so the connection keeps working.

## Rotation

A Microsoft Advertising connection is keyed on the **Microsoft Advertising user**: connecting the same user again replaces the tokens of the existing connection and keeps its ID; another user creates a separate connection.

Access tokens last about an hour; Patchbay refreshes them with the refresh token and keeps the new refresh token Microsoft returns. Refresh tokens stop working when the user changes their password, revokes the app (account.live.com/consent or My Apps for work accounts), or when Microsoft asks for consent again; connect again with a new auth link.
`,
} as const;
