// Plain-markdown page served at /docs/connections/whatsapp.md.

export const whatsappDocs = `# WhatsApp Business

Reads a WhatsApp Business phone number (quality rating, messaging limit, business profile) and its message templates, and sends template messages, through the WhatsApp Cloud API (Graph API v21.0, \`graph.facebook.com\`).

| field | where it comes from |
|---|---|
| \`access_token\` | A system-user access token with the \`whatsapp_business_messaging\` and \`whatsapp_business_management\` permissions. |
| \`phone_number_id\` | The ID of the business phone number (not the phone number itself), from WhatsApp Manager or the app's **WhatsApp → API Setup** page. |

## Where each credential comes from

### \`access_token\`: a system-user token

1. Open [Business settings](https://business.facebook.com/settings) → **Users → System users**, add one (for example "Patchbay") with the **Admin** role.
2. **Assign assets**: choose your app and your **WhatsApp account** (WhatsApp Business Account) with full control.
3. **Generate new token** for your app (the app must have the WhatsApp product), expiry **Never**, with \`whatsapp_business_messaging\` (send messages) and \`whatsapp_business_management\` (phone numbers, templates). Copy it into \`access_token\`; Meta shows it once.

### \`phone_number_id\`

In [Meta for Developers](https://developers.facebook.com/apps/) → your app → **WhatsApp → API Setup**, the **Phone number ID** under the sending number; or in WhatsApp Manager → **Account tools → Phone numbers**. It is a string of digits such as \`106540352242922\`.

Patchbay checks the credentials before storing them: \`GET https://graph.facebook.com/v21.0/{phone_number_id}?fields=id,display_phone_number,verified_name\` with the token must answer the number. The connection's account name is the verified business name and the display number.

## What it reads and changes

- **Phone number** (\`GET /{phone-number-id}\`): display number, verified name, quality rating (GREEN, YELLOW, RED), messaging limit tier, name and verification status, throughput.
- **Business profile** (\`GET /{phone-number-id}/whatsapp_business_profile\`): about, address, description, email, websites, vertical, profile picture.
- **Message templates** (\`GET /{waba-id}/message_templates\`): the templates of a WhatsApp Business Account (its ID is an input: WhatsApp Manager → Account tools → **Business account ID**).
- **Sending a template message** (a write, approved by a person unless the server's write policy says otherwise): \`POST /{phone-number-id}/messages\` with \`messaging_product: whatsapp\`, \`type: template\`, the template's \`name\`, \`language.code\` and component parameters. Only approved templates can start a conversation. Sending twice sends two messages, so a failed run is never repeated automatically.

## Rotation: posting the same phone number again

A whatsapp connection is keyed on its **phone number ID**, like a store: posting \`POST /v1/connections\` again with the same \`phone_number_id\` replaces the stored token of that connection in place, whatever \`name\` you send; the connection ID stays the same, so workflows keep working. A different phone number ID creates a separate connection.

\`\`\`json
{
  "connection_type": "whatsapp",
  "name": "Support line",
  "credentials": { "access_token": "EAA…", "phone_number_id": "106540352242922" }
}
\`\`\`

## What the errors mean

A 400 carries Meta's own reason: \`OAuthException (code 190)\` (the token expired or was revoked: generate a new one and post again), \`(#100) … Object with ID '…' does not exist …\` (a wrong \`phone_number_id\`, or a token without access to it), \`(#132001) Template name does not exist in the translation\` (a template name or language that is not approved), \`(#131026) Message undeliverable\`. Throttling — \`130429\` (throughput), \`131056\` (too many messages to one customer), \`80007\` (the WhatsApp Business Account's rate limit), or Graph's \`4\` — is reported as a rate limit; wait before sending again.
`;
