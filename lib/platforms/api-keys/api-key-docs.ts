const everyPostIsNew = `## Rotation

Every post creates a **new connection**, even with the same key and name: to rotate a key, post
the new one, rebind your workflows to the new connection's ID, then delete the old connection
(\`DELETE /v1/connections/{id}\`).`;

export const apiKeyDocs = {
  openai: `# OpenAI

Connects an OpenAI API project with one of its API keys (\`POST /v1/connections\`).

| field | where it comes from |
|---|---|
| \`api_key\` | An OpenAI secret API key (\`sk-proj-…\`, or \`sk-…\` for older keys). |

### \`api_key\`

1. Sign in at <https://platform.openai.com> and pick the organization and **project** the key is for.
2. Open **Settings → API keys** (<https://platform.openai.com/api-keys>) and click **Create new secret key**.
3. Name it (e.g. "Patchbay"), choose the project, and set **Permissions**: **All**, or **Restricted**
   with at least **Models: Read** (\`api.model.read\`) plus what your workflows need.
4. Click **Create secret key** and copy it: OpenAI shows it only once.

Patchbay checks the key with \`GET https://api.openai.com/v1/models\` before saving it. OpenAI's
refusals are shown in the error's \`detail\`:

- \`invalid_api_key: Incorrect API key provided: …\`: the key is wrong, deleted or revoked.
- \`… insufficient permissions for this operation. Missing scopes: api.model.read …\`: a restricted
  key without Models read access; edit the key's permissions.

${everyPostIsNew}
`,

  anthropic: `# Anthropic

Connects an Anthropic (Claude API) workspace with one of its API keys (\`POST /v1/connections\`).

| field | where it comes from |
|---|---|
| \`api_key\` | An Anthropic API key (\`sk-ant-api03-…\`). |

### \`api_key\`

1. Sign in to the Claude Console at <https://console.anthropic.com>.
2. Open **Settings → API keys** and click **Create Key**.
3. Choose the **workspace** the key belongs to and name it (e.g. "Patchbay").
4. Click **Add** and copy the key: the Console shows it only once.

Patchbay checks the key with \`GET https://api.anthropic.com/v1/models\` (header
\`anthropic-version: 2023-06-01\`) before saving it. Anthropic's refusals are shown in the error's
\`detail\`:

- \`authentication_error: invalid x-api-key\`: the key is wrong, disabled or deleted.
- \`permission_error: …\`: the key may not use this resource (workspace or organization restrictions).

${everyPostIsNew}
`,

  klaviyo: `# Klaviyo

Connects a Klaviyo account with one of its private API keys (\`POST /v1/connections\`).

| field | where it comes from |
|---|---|
| \`private_api_key\` | A Klaviyo **private** API key (\`pk_…\`), not the 6-character public key (site ID). |

### \`private_api_key\`

1. Sign in to Klaviyo, click your account name (bottom left) and open **Settings → API keys**
   (<https://www.klaviyo.com/settings/account/api-keys>).
2. Click **Create Private API Key** and name it (e.g. "Patchbay").
3. Choose **Custom Key** and give at least **Accounts: Read Access** (\`accounts:read\`), plus what
   your workflows need, or choose **Read-Only Key**.
4. Click **Create** and copy the key: Klaviyo shows it only once.

What each operation needs on the key: campaigns and their performance report (\`klaviyo.list_campaigns\`,
\`klaviyo.campaign_report\`) **Campaigns: Read**; lists and segments (\`klaviyo.lists.list\`,
\`klaviyo.segments.list\`) **Lists: Read** and **Segments: Read**; adding a profile to a list
(\`klaviyo.list.add_profile\`) **Profiles** and **Lists: Full Access**; unsubscribing a profile
(\`klaviyo.profile.unsubscribe\`) **Profiles**, **Lists** and **Subscriptions: Full Access**. A key
without the access answers \`permission_denied\` naming the missing scope.

Patchbay checks the key with \`GET https://a.klaviyo.com/api/accounts/\` (revision \`2024-10-15\`)
before saving it and names the connection's account after the organization. Klaviyo's refusals
are shown in the error's \`detail\`:

- \`not_authenticated: Missing or invalid private key.\`: the key is wrong or was revoked.
- \`permission_denied: … missing required scopes: accounts:read\`: edit the key to add Accounts read access.

${everyPostIsNew}
`,

  semrush: `# Semrush

Connects a Semrush account's API access with its API key (\`POST /v1/connections\`).

| field | where it comes from |
|---|---|
| \`api_key\` | The Semrush API key of the account (32 hexadecimal characters). |

### \`api_key\`

1. API access needs a Semrush **Business** subscription with API units.
2. Sign in to Semrush, open the profile menu (top right) and choose **Subscription info**.
3. Open the **API units** tab: the **API key** is shown there. Copy it.
4. The account has one API key; generating a new one there invalidates the old one.

Patchbay checks the key by reading the API-unit balance
(\`GET https://www.semrush.com/users/countapiunits.html\`, which costs no units) before saving it.
Semrush's refusals are shown in the error's \`detail\`:

- \`ERROR 120 :: WRONG KEY - ID PAIR\`: the key is wrong or was regenerated.
- \`ERROR 130 :: API DISABLED\`: the subscription has no API access.

${everyPostIsNew}
`,

  stripe: `# Stripe

Connects a Stripe account with a secret or restricted API key (\`POST /v1/connections\`).

| field | where it comes from |
|---|---|
| \`secret_key\` | A secret key (\`sk_live_…\` / \`sk_test_…\`) or, better, a restricted key (\`rk_live_…\` / \`rk_test_…\`). |

### \`secret_key\`

1. Sign in to the Stripe Dashboard and open **Developers → API keys**
   (<https://dashboard.stripe.com/apikeys>). Toggle **Test mode** for a test key.
2. Either click **Reveal** next to the **Secret key** and copy it, or (recommended) click
   **Create restricted key**, name it (e.g. "Patchbay"), give **Read** access to what your
   workflows need, including the account details, and copy the \`rk_…\` key.
3. Stripe shows a newly created key only once; store it before closing the dialog.

Patchbay checks the key with \`GET https://api.stripe.com/v1/account\` before saving it and names the
connection's account after the account's display name. Stripe's refusals are shown in the error's
\`detail\`:

- \`invalid_request_error: Invalid API Key provided: sk_test_****…\`: the key is wrong or was rolled.
- \`api_key_expired: Expired API Key provided: …\`: the key was rolled with an expiry that has passed.
- \`invalid_request_error: The provided key 'rk_…' does not have the required permissions … Having the 'rak_…' permission would allow this request to continue.\`:
  a restricted key lacks the named permission; edit the key.

${everyPostIsNew}
`,
} as const;
