export const shopifyDocs = `# Shopify

Connects one Shopify store: reads its orders, products (with inventory) and customers; changes a
product's status (active, draft, archived) and creates discount codes, each write only once a
person approves it (or a workflow runs it). Connect it through an **auth link** (OAuth: the store owner approves
Patchbay's app) or post the credentials of a custom app you created in the store
(\`POST /v1/connections\`, a white-label connection: Team plan).

## Credentials (\`POST /v1/connections\`)

| field | where it comes from |
|---|---|
| \`shop_domain\` | The store's permanent domain, \`<store>.myshopify.com\` (not a custom domain like \`shop.acme.com\`). |
| \`access_token\` | The **Admin API access token** of a custom app installed in that store (\`shpat_…\`). |

### \`shop_domain\`

1. Sign in to the Shopify admin of the store.
2. Open **Settings → Domains**. The domain ending in \`.myshopify.com\` is the permanent one;
   use it even when the store has its own domain. (The admin address
   \`admin.shopify.com/store/acme\` belongs to \`acme.myshopify.com\`.)
3. Send it without \`https://\` or a trailing slash, e.g. \`acme.myshopify.com\`.

### \`access_token\`

1. In the Shopify admin open **Settings → Apps and sales channels → Develop apps**. If asked, click
   **Allow custom app development** (store owner only).
2. Click **Create an app**, give it a name (e.g. "Patchbay") and create it.
3. Open **Configuration → Admin API integration → Configure** and tick the scopes
   \`read_orders\`, \`read_products\` and \`read_customers\`, and for the writes \`write_products\`
   (product status) and \`write_discounts\` (discount codes). Save.
4. Open **API credentials** and click **Install app**, then confirm.
5. Under **Admin API access token** click **Reveal token once** and copy the value that starts
   with \`shpat_\`. Shopify shows it only once; uninstalling the app revokes it.

Patchbay checks the pair with \`GET /admin/api/2025-01/shop.json\` on that store before saving
anything. Typical refusals, shown in the error's \`detail\`:

- \`[API] Invalid API key or access token (unrecognized login or wrong password)\`: the token is
  wrong, revoked (app uninstalled) or belongs to another store.
- \`[API] This action requires merchant approval for read_orders scope.\`: the app lacks a
  scope; add it under **Configuration** and reinstall.
- \`shop_domain … is not a store's myshopify.com domain\`: send the permanent domain.

## OAuth (auth links)

The connect page first asks for the store's \`.myshopify.com\` domain, then sends the store owner
to Shopify to approve these scopes:

- \`read_orders\`: read the store's orders
- \`read_products\`: read products
- \`read_customers\`: read customers
- \`write_products\`: change a product's status (\`shopify.product.status.update\`)
- \`write_discounts\`: create discount codes (\`shopify.discount_code.create\`)

The token Shopify issues is an offline token: it does not expire and is valid until the app is
uninstalled from the store.

## Rotation

A Shopify connection is keyed on the **store**: posting credentials for a store the team has
already connected replaces the stored credentials of that connection in place (same connection
ID, \`display_name\` set to the \`name\` you send), whatever name you send. A different store
creates a separate connection.
`;
