// Plain-markdown page served at /docs/connections/instagram.md.

export const instagramDocs = `# Instagram

Reads Instagram professional accounts (business or creator) — account insights, recent posts and their metrics — and publishes photos, through the Instagram Graph API with Facebook Login (Graph API v21.0, \`graph.facebook.com\`) on Patchbay's Meta app.

## What it reads and changes

- **Accounts**: the Instagram professional accounts linked to the Facebook Pages you manage (\`GET /me/accounts?fields=instagram_business_account{…}\`): ID, username, followers, media count.
- **Account insights** (\`GET /{ig-user-id}/insights\`): reach, views, accounts engaged, total interactions, likes, comments, shares, saves, replies, profile link taps, follower count; totals or daily values over at most 30 days.
- **Media**: recent posts (\`GET /{ig-user-id}/media\`) with like and comment counts, and one post's insights (\`GET /{ig-media-id}/insights\`: reach, views, likes, comments, saved, shares, total interactions).
- **Publishing a photo** (a write, approved by a person unless the server's write policy says otherwise): \`POST /{ig-user-id}/media\` with \`image_url\` and \`caption\` creates a container; Patchbay reads its \`status_code\` until it is \`FINISHED\` (at most five checks, a second apart), then \`POST /{ig-user-id}/media_publish\` with \`creation_id\` publishes it. The image must be a JPEG on a public https URL (Instagram downloads it). An account may publish 50 posts in 24 hours. Sending it twice publishes two posts.

## How to connect

Instagram connects through OAuth only: create an auth link (\`POST /v1/connections/auth-link\`) with \`connection_type\` \`instagram\` and send the account's owner to its URL. They sign in to **Facebook** (not Instagram), choose the Pages and the Instagram accounts linked to them, and approve the permissions. The Instagram account must be a professional (business or creator) account linked to a Facebook Page they manage. The connection is named after the Facebook user; connecting the same user again replaces it (rotation keyed on the Facebook user ID).

## Permissions

- \`instagram_basic\`: the account's profile and media.
- \`instagram_manage_insights\`: account and media insights (Meta's name says "manage"; Patchbay only reads with it).
- \`instagram_content_publish\`: publish photos (the catalogue's only write).
- \`pages_show_list\` and \`pages_read_engagement\`: find the Instagram accounts through your Pages.

## What the errors mean

A 400 carries Meta's own reason, e.g. \`OAuthException (code 190)\` (connect again), \`(#10) Not enough viewers for the media to show insights\`, \`(#100) … metric …\` (a metric Meta retired or one the media type lacks), or a container that ended in \`ERROR\` (the image could not be fetched or is not a supported JPEG). Meta's throttling (codes 4, 17, 32, 613, 80002) is reported as a rate limit; wait before trying again.
`;
