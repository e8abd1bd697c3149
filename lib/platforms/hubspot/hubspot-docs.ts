// Plain-markdown page served at /docs/connections/hubspot.md.

export const hubspotDocs = {
  hubspot: `# HubSpot

Reads contacts, deals and companies from a HubSpot CRM account (portal) through the HubSpot CRM API; creates and updates contacts, moves deals between pipeline stages and creates companies, each write only once a person approves it (or a workflow runs it).

This type takes **no credentials**: \`POST /v1/connections\` rejects it. Connections go through Patchbay's HubSpot app.

## Connecting

1. Create an auth link: \`POST /v1/connections/auth-link\` with \`{"connection_type": "hubspot"}\` (add \`external_id\` and \`redirect_url\` as needed).
2. Send the end user to the link's \`url\`. They sign in to HubSpot, **choose the account** (portal) to connect if they belong to several, and click **Connect app**.
3. The connection is created and named after the account's HubSpot domain (for example \`acme.com\`).

The user must be a **Super Admin** of the HubSpot account, or have the **App Marketplace access** permission, to install apps.

## Scopes requested

- \`oauth\`: required by HubSpot for every OAuth app.
- \`crm.objects.contacts.read\`: read contacts and their properties.
- \`crm.objects.contacts.write\`: create or update a contact when an agent's write is approved (or a workflow runs one); nothing is written otherwise.
- \`crm.objects.deals.read\` / \`crm.objects.deals.write\`: read deals; move a deal to another stage (\`hubspot.deal.update_stage\`).
- \`crm.objects.companies.read\` / \`crm.objects.companies.write\`: read companies; create a company (\`hubspot.company.create\`).

A portal connected before these scopes were asked for must be connected again (a new auth link) for the deal and company operations: HubSpot answers \`MISSING_SCOPES\` until then.

## Rotation

A HubSpot connection is keyed on the **HubSpot account** (its hub ID): connecting the same account again (through a new auth link, by any of its users) replaces the tokens of the existing connection and keeps its ID; another account creates a separate connection.

HubSpot access tokens last 30 minutes; Patchbay refreshes them with the refresh token, which lasts until the app is uninstalled. When someone uninstalls the app (HubSpot → Settings → Integrations → Connected apps), connect again with a new auth link.
`,
} as const;
