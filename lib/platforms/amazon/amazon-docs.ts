// Plain-markdown page served at /docs/connections/amazon_ads.md.

export const amazonDocs = {
  amazon_ads: `# Amazon Ads

Reads Amazon Ads advertising profiles, Sponsored Products campaigns and campaign performance reports, and pauses, enables and re-budgets Sponsored Products campaigns, through the Amazon Ads API (Sponsored Products v3, reporting v3).

This type takes **no credentials**: \`POST /v1/connections\` rejects it. Connections go through Patchbay's Login with Amazon app, which Amazon must have approved for the Amazon Ads API (\`OAUTH_AMAZON_CLIENT_ID\` / \`OAUTH_AMAZON_CLIENT_SECRET\`: the client ID and secret of the LwA security profile, with \`\${APP_URL}/oauth/callback\` among its Allowed Return URLs).

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "amazon_ads"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the end user to the link's \`url\`. They sign in with the Amazon user account that has access to their Amazon Ads accounts and select **Allow**.
3. The connection is created and named after the Amazon user's email (or name). Every advertising profile the user can manage is available, in all three regions (North America, Europe, Far East): \`amazon_ads.profiles.list\` lists them.

A **profile** is one advertiser account (seller, vendor or agency) in one marketplace; the campaign, report and budget operations take its \`profile_id\` and, optionally, its \`region\` (\`na\`, \`eu\` or \`fe\`: found from the profiles when left out). The user needs **View and Edit** permission on an account for its profile to be listed and changed.

## Scopes requested

- \`advertising::campaign_management\`: the Amazon Ads API on the accounts the user can manage (read profiles, campaigns and reports; pause, enable and re-budget campaigns when an agent's write is approved or a workflow runs one).
- \`profile\`: the Amazon user's ID, name and email address, which identify the connection.

## Rotation

An Amazon Ads connection is keyed on the **Amazon user** (the Login with Amazon \`user_id\`): connecting the same user again replaces the tokens of the existing connection and keeps its ID; another user creates a separate connection.

Access tokens last an hour; Patchbay refreshes them with the refresh token, which does not expire. It stops working when the user removes Patchbay's app (Amazon → Your Account → Login with Amazon); connect again with a new auth link.
`,
} as const;
