// Plain-markdown page served at /docs/connections/pinterest_ads.md.

export const pinterestDocs = {
  pinterest_ads: `# Pinterest Ads

Reads Pinterest ad accounts, campaigns and campaign analytics, and pauses, activates and re-budgets campaigns, through the Pinterest API v5.

This type takes **no credentials**: \`POST /v1/connections\` rejects it. Connections go through Patchbay's Pinterest app.

## What it reads and changes

- **Reads**: the ad accounts the user can use, the campaigns of an ad account (status, objective, spend caps, schedule), and campaign analytics (spend, impressions, clicks, CTR, conversions) for a date range of the last 90 days.
- **Changes**, only when an agent's write is approved (or a workflow runs one): a campaign's status (pause, activate, archive) and its daily budget (daily spend cap).

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "pinterest_ads"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the end user to the link's \`url\`. They sign in to Pinterest and click **Give access**.
3. The connection is created and named after the user's Pinterest username.

The user needs a Pinterest business account with access to the ad accounts (owner, or an Admin, Analyst or Campaign manager role through Business Access); changing campaigns needs a role that can manage them.

## Scopes requested

- \`ads:read\`: see ad accounts, campaigns, ad groups, ads and their analytics.
- \`ads:write\`: create, update or delete ads, ad groups and campaigns; Patchbay only pauses, activates, archives and re-budgets campaigns.
- \`user_accounts:read\`: see the Pinterest user account (its ID and username name the connection).

## Rotation

A Pinterest Ads connection is keyed on the **Pinterest user account**: connecting the same user again (through a new auth link) replaces the tokens of the existing connection and keeps its ID; another user creates a separate connection.

Pinterest access tokens last 30 days; Patchbay refreshes them with the refresh token (valid for a year, renewed as Pinterest sends a new one). When the user removes the app (Pinterest → Settings → Security and logins → Apps) or the refresh token lapses, connect again with a new auth link.

## Rate limits

Pinterest limits calls per user and app (for example 300 analytics calls a minute with Standard access). When it answers 429, Patchbay waits as it asks when that is a few seconds, and otherwise reports the rate limit.
`,
} as const;
