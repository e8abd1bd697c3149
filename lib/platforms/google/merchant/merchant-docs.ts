import { oauthSection, rotationAndErrors, whiteLabelSteps } from "@/lib/platforms/google/marketing-docs";

// Plain-markdown page served at /docs/connections/google_merchant.md.

const SCOPES = ["https://www.googleapis.com/auth/content"];

export const merchantDocs = `# Google Merchant Center

Reads Google Merchant Center accounts, products and product statuses (where each product is approved or disapproved and why), and changes a product's price or availability, through Google's **Merchant API** (\`merchantapi.googleapis.com\`, accounts v1 and products v1). Patchbay does not use the Content API for Shopping: Google sunset it on 18 August 2026 and is shutting it down.

- **Reads**: the accounts the Google account can reach; an account's products (title, price, availability, link); product statuses with Google's item-level issues (disapprovals, warnings, the attribute at fault).
- **Writes**: the price and/or availability of one product (\`productInputs.patch\` on the product's API data source). Products that come from a file or a Google Sheet feed cannot be changed through the API: Google refuses a data source that is not an API data source.

The Google account must be a user of the Merchant Center account (Merchant Center → Settings → People and access) with **Standard** or **Admin** access to change products.

${oauthSection(SCOPES)}

${whiteLabelSteps("Merchant API", SCOPES, "the Google account that is a user of the Merchant Center account")}

## Scopes

- \`https://www.googleapis.com/auth/content\`: the one scope of the Merchant API (manage product listings and accounts). Google has no read-only scope for it.

Patchbay checks white-label credentials by listing the Merchant Center accounts the token can reach (\`GET https://merchantapi.googleapis.com/accounts/v1/accounts\`).

${rotationAndErrors("google_merchant", SCOPES)}
`;
