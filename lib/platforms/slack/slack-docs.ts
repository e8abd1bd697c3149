export const slackDocs = `# Slack

Connects one Slack app's bot in one workspace. Connect it through an **auth link** (OAuth: a
workspace member installs Patchbay's app) or post the bot token of your own Slack app
(\`POST /v1/connections\`, a white-label connection: Team plan).

## Credentials (\`POST /v1/connections\`)

| field | where it comes from |
|---|---|
| \`bot_token\` | The **Bot User OAuth Token** of your Slack app installed in the workspace (\`xoxb-…\`). |

### \`bot_token\`

1. Open <https://api.slack.com/apps> and pick your app (or **Create New App → From scratch**,
   name it and choose the workspace).
2. Open **OAuth & Permissions**. Under **Scopes → Bot Token Scopes** add \`channels:read\`,
   \`chat:write\`, \`team:read\` and \`users:read\` (\`users:read\` lets Patchbay look up which app
   the bot belongs to).
3. At the top of the same page click **Install to Workspace** (or **Reinstall** after changing
   scopes) and allow it.
4. Copy the **Bot User OAuth Token**; it starts with \`xoxb-\`. A user token (\`xoxp-…\`) is refused.

Leave **token rotation** off for a token you paste here: a rotating token (\`xoxe.xoxb-…\`)
expires after 12 hours and a pasted token comes without its refresh token. If your app uses
rotation, connect through an auth link instead.

Patchbay checks the token with \`auth.test\` (workspace and bot) and \`bots.info\` (the bot's app)
before saving anything. Slack's refusals are shown in the error's \`detail\`:

- \`invalid_auth\` / \`not_authed\`: the token is wrong or missing.
- \`token_revoked\`: the app was uninstalled or the token was revoked.
- \`token_expired\`: a rotating token ran out; paste a fresh one or use an auth link.
- \`missing_scope: needed users:read (token has …)\`: add the scope and reinstall the app.

## OAuth (auth links)

The workspace member is sent to Slack to install the app with these bot scopes:

- \`channels:read\`: see the public channels of the workspace
- \`chat:write\`: post messages as the app's bot
- \`team:read\`: read the workspace's name and details
- \`users:read\`: see people and bots in the workspace

When the app has token rotation on, Patchbay refreshes the 12-hour bot token with its refresh
token as needed.

## Rotation

A Slack connection is keyed on the **workspace and app**: posting a token for a workspace and app
the team has already connected replaces the stored token of that connection in place (same
connection ID, \`display_name\` set to the \`name\` you send), whatever name you send. Another
workspace, or another app in the same workspace, creates a separate connection.
`;
