import { oauthSection, rotationAndErrors, whiteLabelSteps } from "@/lib/platforms/google/marketing-docs";

// Plain-markdown page served at /docs/connections/dv360.md.

const SCOPES = ["https://www.googleapis.com/auth/display-video"];

export const dv360Docs = `# Display & Video 360

Reads Display & Video 360 partners, advertisers, campaigns, insertion orders and line items, and pauses or activates line items, through the **Display & Video 360 API v4** (the current version; v3 was sunset on 7 October 2025).

- **Reads**: the partners the Google account can reach; the advertisers of a partner; the campaigns, insertion orders and line items of an advertiser (name, status, type).
- **Writes**: the status of one line item: paused or active (\`advertisers.lineItems.patch\` with \`updateMask=entityStatus\`).

The Google account must be a Display & Video 360 user of the partner or advertiser (DV360 → Settings → User management); changing line items needs the **Standard** role or higher. The Google Cloud project must have the Display & Video 360 API enabled.

${oauthSection(SCOPES)}

${whiteLabelSteps("Display & Video 360 API", SCOPES, "the Google account that is a Display & Video 360 user")}

## Scopes

- \`https://www.googleapis.com/auth/display-video\`: the one scope of the Display & Video 360 API (see and manage your DV360 entities and reports). Google has no read-only scope for it.

Patchbay checks white-label credentials by listing the partners the token can reach (\`GET https://displayvideo.googleapis.com/v4/partners\`).

${rotationAndErrors("dv360", SCOPES)}
`;
