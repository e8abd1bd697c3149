// Plain-markdown page served at /docs/connections/linkedin_ads.md.

export const linkedinDocs = {
  linkedin_ads: `# LinkedIn Ads

Reads LinkedIn ad accounts, campaigns and ad analytics through the LinkedIn Marketing API.

This type takes **no credentials**: \`POST /v1/connections\` rejects it. LinkedIn gives the advertising scopes only to apps it has reviewed, so connections go through Patchbay's LinkedIn app.

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "linkedin_ads"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the LinkedIn member to the link's \`url\`. They sign in to LinkedIn and click **Allow**.
3. The connection is created and named after the member's email address; the link's status (\`GET /v1/connections/auth-links/{id}/status\`) reports it.

The member must have a role on the ad accounts to read (Campaign Manager → Account settings → Manage access: **Viewer** or higher).

## Scopes requested

- \`openid\`, \`profile\`, \`email\`: who approved (name and email), to name the connection.
- \`r_ads\`: read the ad accounts, campaigns and creatives the member can access.
- \`r_ads_reporting\`: read ad analytics (impressions, clicks, spend, conversions).
- \`rw_ads\`: change a campaign's status (pause, activate, archive) when an agent's write is approved; nothing is changed otherwise.

## Rotation

A LinkedIn connection is keyed on the **LinkedIn member**: connecting the same member again (through a new auth link) replaces the tokens of the existing connection and keeps its ID; another member creates a separate connection.

LinkedIn access tokens last 60 days and refresh tokens a year; Patchbay refreshes the access token as needed. When the refresh token runs out or the member revokes the app (LinkedIn → Settings → Data privacy → Permitted services), connect again with a new auth link.
`,
} as const;
