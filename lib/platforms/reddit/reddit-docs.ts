// Plain-markdown page served at /docs/connections/reddit_ads.md.

export const redditDocs = {
  reddit_ads: `# Reddit Ads

Reads Reddit Ads businesses, ad accounts, campaigns and performance reports, and pauses and activates campaigns, through the Reddit Ads API v3.

This type takes **no credentials**: \`POST /v1/connections\` rejects it. Connections go through Patchbay's Reddit app (a web app registered in the business's developer applications, with Ads API access).

## What it reads and changes

- **Reads**: the businesses the user belongs to with their ad accounts, the campaigns of an ad account (configured and effective status, objective, budget goal, schedule), and a performance report (impressions, clicks, CTR, spend, CPC, eCPM, reach) by campaign, ad group, ad, date, country, community or placement.
- **Changes**, only when an agent's write is approved (or a workflow runs one): a campaign's configured status (pause or activate).

Every request carries Patchbay's descriptive User-Agent, as Reddit requires of API clients.

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "reddit_ads"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the end user to the link's \`url\`. They log in to Reddit and click **Allow** (the grant is permanent, so Patchbay gets a refresh token).
3. The connection is created and named after the user's Reddit username.

The user needs a role on the Reddit Ads accounts in Reddit's Business Manager; changing campaigns needs a role that may edit them (an admin or campaign manager).

## Scopes requested

- \`adsread\`: see ad accounts, campaigns, ad groups, ads and their reports.
- \`adsedit\`: create and change campaigns, ad groups and ads; Patchbay only pauses and activates campaigns.

## Rotation

A Reddit Ads connection is keyed on the **Reddit user** (the ID of the Ads API's \`/me\`): connecting the same user again (through a new auth link) replaces the tokens of the existing connection and keeps its ID; another user creates a separate connection.

Reddit access tokens expire after about a day; Patchbay refreshes them with the refresh token, which lasts until the user revokes the app (reddit.com → User Settings → Safety & Privacy → Manage third-party app authorization). Then connect again with a new auth link.

## Rate limits

Reddit answers 429 when the app calls too often and reports the window in its X-Ratelimit-Used, X-Ratelimit-Remaining and X-Ratelimit-Reset headers; Patchbay waits when the wait is short and otherwise reports the rate limit.
`,
} as const;
