export const sandboxDocs = {
  sandbox_oauth: `# Sandbox (OAuth)

A provider that lives inside Patchbay so every flow runs end to end without the internet.

This type connects only through an **auth link**:

1. Create a link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "sandbox_oauth"}\`.
2. Open the link's \`url\` and continue to the sandbox's authorize page.
3. Choose **Approve** to connect, or **Deny** to see the error redirect.

The link asks for the scopes \`sandbox.read\` (reports and the note) and \`sandbox.write\` (the note,
which \`sandbox.set_note\` sets). A grant without \`sandbox.write\` reads but cannot set the note:
the sandbox answers \`insufficient_scope\`.

No credentials are needed.
`,
  sandbox_whitelabel: `# Sandbox (white-label)

Connect with your own OAuth app's credentials (\`POST /v1/connections\`) or through an auth link.

| field | where it comes from |
|---|---|
| \`client_id\` | Your OAuth app's client ID. Any value works in the sandbox. |
| \`client_secret\` | Your OAuth app's client secret. Any value works in the sandbox. |
| \`refresh_token\` | A refresh token your app obtained for the account. Any value works in the sandbox. |

The sandbox rejects any value that begins with \`bad\`, the way a real provider would:

- \`client_id\` \`bad…\` → \`invalid_client: client_id is not a registered client\`
- \`client_secret\` \`bad…\` → \`invalid_client: client_secret does not match client_id\`
- \`refresh_token\` \`bad_scope…\` → \`insufficient_scope: refresh_token lacks the scope sandbox.read\`
- \`refresh_token\` \`bad…\` → \`invalid_grant: refresh_token expired\`

Posting the same **name** again replaces the stored credentials of that connection (same ID).
White-label connections need the Team plan.
`,
  sandbox_key: `# Sandbox (API key)

| field | where it comes from |
|---|---|
| \`api_key\` | Any value works in the sandbox; one beginning with \`bad\` is rejected with \`invalid_api_key: api_key is not valid\`. |

Every post creates a new connection: rebind your workflows to the new one and delete the old one.
`,
  sandbox_model: `# Sandbox model

A model that lives inside Patchbay, for the agent (Agent in the dashboard, \`/v1/agent/conversations\` in
the API), so a conversation runs through the real agent loop without a model key. Create it with
\`POST /v1/connections\` and \`{"connection_type": "sandbox_model", "name": "Sandbox model", "credentials": {}}\`:
no credentials are needed.

It speaks OpenAI's Chat Completions format and follows a fixed script on the member's message:

| the message | what the agent does |
|---|---|
| contains \`note:\` | asks to run \`sandbox.set_note\` with the rest of the message as the note: a write, so it waits for a person's approval |
| contains \`report\` (any case) | runs \`sandbox.report\` (\`metric: sessions\`, \`days: 7\`) on the first sandbox connection of the conversation and answers with its total |
| anything else | answers in plain text, with no tool call |
`,
} as const;
