// Plain-markdown page served at /docs/connections/meta_ads.md.

export const metaDocs = {
  meta_ads: `# Meta Ads

Reads Meta (Facebook and Instagram) ad accounts, campaigns (status and budgets), ads, ad creatives and insights through the Graph API (v21.0); with \`ads_management\`, pauses and activates campaigns, ad sets and ads and changes daily budgets.

| field | where it comes from |
|---|---|
| \`app_id\` | The App ID of your Meta app (App settings → Basic). |
| \`app_secret\` | The App secret of the same app (App settings → Basic → Show). |
| \`access_token\` | A system-user access token generated for that app in Meta Business Manager, with the \`ads_read\` permission. |

## Where each credential comes from

### \`app_id\` and \`app_secret\`: your Meta app

1. Open [Meta for Developers](https://developers.facebook.com/apps/) and click **Create app**. Choose the use case **Other**, then the app type **Business**, and connect it to your business portfolio.
2. In the app dashboard, add the **Marketing API** product.
3. Open **App settings → Basic**. Copy the **App ID** into \`app_id\`, click **Show** next to **App secret**, confirm your password and copy it into \`app_secret\`.

### \`access_token\`: a system-user token

A system user belongs to your business rather than to a person, so its token does not expire when someone leaves or changes their password.

1. Open [Business settings](https://business.facebook.com/settings) → **Users → System users** and click **Add**. Name it (for example "Patchbay") and give it the **Employee** or **Admin** role.
2. With the system user selected, click **Assign assets**: choose **Ad accounts**, tick the ad accounts to read, and grant at least **View performance** (Manage campaigns if workflows change ads).
3. Still on the system user, make sure your app is listed under **Apps** (Business settings → Accounts → Apps → add the app, then assign it to the system user).
4. Click **Generate new token**, select your app, choose the expiry (**Never** is recommended), tick the permissions **\`ads_read\`** and **\`business_management\`** (add \`ads_management\` if workflows change ads), and click **Generate token**.
5. Copy the token into \`access_token\`. Meta shows it only once.

## Permissions

- \`ads_read\` (required): read ad accounts, campaigns, ads and insights.
- \`business_management\`: list the businesses and the ad accounts they own.

Patchbay checks the credentials before storing them: \`GET https://graph.facebook.com/v21.0/debug_token\` with your app's access token (\`app_id|app_secret\`) must report the token as valid, issued for **your** app and granted \`ads_read\`; then \`GET /v21.0/me\` with the token (with an \`appsecret_proof\`, so apps with **Require App Secret** on work too).

## Rotation: posting the same name again

A meta_ads connection created from credentials is white-label and is keyed on **type and name**. Posting \`POST /v1/connections\` again with the same \`connection_type\` and \`name\` replaces the stored credentials of that connection in place: the connection ID stays the same, so workflows keep working. Use this to roll a new system-user token. A different \`name\` creates a separate connection. White-label connections need the Team plan.

\`\`\`json
{
  "connection_type": "meta_ads",
  "name": "Acme ads",
  "credentials": { "app_id": "1234567890", "app_secret": "…", "access_token": "EAA…" }
}
\`\`\`

## What the errors mean

A 400 carries Meta's own reason:

- \`OAuthException (code 190, subcode 463): Error validating access token: Session has expired …\`: the token expired. Generate a new one (expiry **Never**) and post again with the same name.
- \`OAuthException (code 190): Invalid OAuth access token signature.\`: \`app_secret\` does not belong to \`app_id\`.
- \`OAuthException (code 101): Error validating application. Invalid application ID.\`: \`app_id\` is not a Meta app.
- \`the access token lacks the ads_read permission …\`: the token was generated without \`ads_read\`; generate a new one with it ticked.
- \`the access token was issued for app …\`: the token belongs to another app; generate it for the app whose ID you post.

## Connecting through an auth link (OAuth)

Without your own app, create an auth link (\`POST /v1/connections/auth-link\`) and send the end user to its URL. Patchbay's Meta app asks for \`ads_read\`, \`ads_management\` (the catalogue pauses and activates campaigns, ad sets and ads and changes budgets, each write under its MCP server's or workflow's approval) and \`business_management\`, and names the connection after the Facebook user. Connecting the same Facebook user again replaces that connection.
`,
} as const;
