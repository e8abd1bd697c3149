// Plain-markdown page served at /docs/connections/tiktok_ads.md.

export const tiktokDocs = {
  tiktok_ads: `# TikTok Ads

Reads TikTok advertiser accounts, campaigns and reports through the TikTok API for Business (Marketing API v1.3).

This type takes **no credentials**: \`POST /v1/connections\` rejects it. Connections go through Patchbay's TikTok for Business app.

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "tiktok_ads"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the end user to the link's \`url\`. They sign in to TikTok for Business, tick the **advertiser accounts** to share and click **Confirm**.
3. The connection is created and named after the user's TikTok for Business email (or display name). The advertiser accounts they ticked are the ones Patchbay can read.

The user must be an admin or operator of the advertiser accounts (TikTok Ads Manager → Business Center → Members).

## Permissions requested

TikTok grants the permission groups configured on Patchbay's app rather than scopes named in the link: **Ad Account Management** (read advertiser info), **Ads Management** (read and change campaigns, ad groups and ads: Patchbay pauses and enables campaigns) and **Reporting** (read reports). The consent page lists them.

## Rotation

A TikTok connection is keyed on the **TikTok for Business user**: connecting the same user again (through a new auth link) replaces the token of the existing connection and keeps its ID, which is how to add advertiser accounts later; another user creates a separate connection.

TikTok's access token does not expire. It stops working when the user revokes the authorization (TikTok for Business → Business Center → Apps) or is removed from the advertiser accounts; connect again with a new auth link.
`,
} as const;
