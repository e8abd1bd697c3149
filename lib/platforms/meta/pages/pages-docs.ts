// Plain-markdown page served at /docs/connections/facebook_pages.md.

export const pagesDocs = `# Facebook Pages

Reads the Facebook Pages you manage — their insights (reach, engagement, followers) and recent posts — and publishes posts on them, through the Graph API (v21.0) on Patchbay's Meta app.

## What it reads and changes

- **Pages**: the Pages you manage (\`GET /me/accounts\`): ID, name, category, followers and the tasks you may perform.
- **Insights**: a Page's metrics per day, week or 28 days (\`GET /{page-id}/insights\`), e.g. \`page_total_media_view_unique\`, \`page_post_engagements\`, \`page_follows\`. Meta keeps two years of data and answers at most 90 days per call.
- **Posts**: a Page's recent posts (\`GET /{page-id}/posts\`).
- **Publishing** (a write, approved by a person unless the server's write policy says otherwise): a new post on a Page (\`POST /{page-id}/feed\` with \`message\` and an optional \`link\`). It is live at once. Sending it twice publishes two posts.

Page calls are made with the Page's own access token, which Patchbay reads with your user token for each call (\`GET /{page-id}?fields=access_token\`). Page tokens are never stored, returned or logged.

## How to connect

Facebook Pages connects through OAuth only: create an auth link (\`POST /v1/connections/auth-link\`) with \`connection_type\` \`facebook_pages\` and send the Page's admin to its URL. They sign in to Facebook, choose the Pages Patchbay may use and approve the permissions. The connection is named after the Facebook user; connecting the same user again replaces that connection (rotation keyed on the Facebook user ID).

The person connecting needs a role on each Page that allows the task: **Create content** to publish, **Analyze** (or more) for insights.

## Permissions

- \`pages_show_list\`: list the Pages you manage.
- \`pages_read_engagement\`: read posts, followers and engagement of those Pages.
- \`read_insights\`: read Page Insights.
- \`pages_manage_posts\`: publish posts (the catalogue's only write).

## What the errors mean

A 400 carries Meta's own reason, e.g. \`OAuthException (code 190): …\` (the token expired or was revoked: connect again), \`(#200) … pages_manage_posts …\` (the permission was not granted), \`(#100) The value must be a valid insights metric\` (a metric name Meta does not know or has retired). Meta's throttling (codes 4, 17, 32, 613, 80001) is reported as a rate limit; wait before trying again.
`;
