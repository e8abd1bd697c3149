// Plain-markdown page served at /docs/connections/snapchat_ads.md.

export const snapchatDocs = {
  snapchat_ads: `# Snapchat Ads

Reads Snapchat organizations, ad accounts, campaigns and campaign stats, and pauses, activates and re-budgets campaigns, through the Snapchat Marketing API.

This type takes **no credentials**: \`POST /v1/connections\` rejects it. Connections go through Patchbay's Snap OAuth app (made in Snap Business Manager → Business Details → OAuth Apps).

## What it reads and changes

- **Reads**: the organizations the user belongs to with their ad accounts, the campaigns of an ad account (status, objective, budgets, schedule, delivery status), and a campaign's stats (impressions, swipes, spend, video quartiles …) for a date range, in total or per day.
- **Changes**, only when an agent's write is approved (or a workflow runs one): a campaign's status (pause or activate) and its daily budget. Snapchat updates a campaign by replacing it whole, so Patchbay reads the campaign first and sends it back with the one field changed.

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "snapchat_ads"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the end user to the link's \`url\`. They log in to Snapchat and click **Continue** to let the app act for them.
3. The connection is created and named after the user's email in Snap Business Manager (or display name).

What the connection can see and change follows the user's roles in Snap Business Manager: a member of the organization with a role on the ad account (an Ad Account Admin or General role can change campaigns; a Reports role only reads).

## Scope requested

- \`snapchat-marketing-api\`: the Marketing API's one scope; it allows reading and managing organizations, ad accounts, campaigns, ad squads, ads and stats as the user's roles allow. Patchbay only reads, pauses, activates and re-budgets campaigns.

## Rotation

A Snapchat Ads connection is keyed on the **Snapchat user** (the ID of \`/v1/me\`): connecting the same user again (through a new auth link) replaces the tokens of the existing connection and keeps its ID; another user creates a separate connection.

Snapchat access tokens last 30 minutes; Patchbay refreshes them with the refresh token. When the user revokes the app or leaves the organization, connect again with a new auth link.

## Rate limits

Snapchat allows each access token about 10 requests a second on average (20 for the whole app) and answers 429 beyond that; Patchbay waits when the wait is short and otherwise reports the rate limit.
`,
} as const;
