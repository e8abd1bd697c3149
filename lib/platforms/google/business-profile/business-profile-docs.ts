import { oauthSection, rotationAndErrors, whiteLabelSteps } from "@/lib/platforms/google/marketing-docs";

// Plain-markdown page served at /docs/connections/google_business_profile.md.

const SCOPES = ["https://www.googleapis.com/auth/business.manage"];

export const businessProfileDocs = `# Google Business Profile

Reads Google Business Profile accounts, their locations and the customer reviews of each location, and replies to reviews, through the Business Profile APIs: the **Account Management API v1** (accounts), the **Business Information API v1** (locations) and the **My Business API v4** (reviews and replies).

- **Reads**: the accounts the Google account manages; the locations of an account (title, address, website, phone, category, Maps link); the reviews of a location (star rating, comment, the owner's reply) with the average rating.
- **Writes**: the owner's reply to a review (created, or replaced when one exists). Google accepts replies only on verified locations.

The Google account must be an owner or manager of the Business Profile (business.google.com → the profile → Business Profile settings → Managers).

Google gives the Business Profile APIs only to approved projects: request access with the [GBP API contact form](https://support.google.com/business/contact/api_default) for the Google Cloud project of the OAuth client. Until it is approved, the APIs answer with a quota of 0 requests per minute.

${oauthSection(SCOPES)}

${whiteLabelSteps("My Business Account Management API**, **My Business Business Information API** and **Google My Business API", SCOPES, "an owner or manager of the Business Profile")}

## Scopes

- \`https://www.googleapis.com/auth/business.manage\`: the one scope of the Business Profile APIs (see and manage your business listings). Google has no read-only scope for them.

Patchbay checks white-label credentials by listing the accounts the token can manage (\`GET https://mybusinessaccountmanagement.googleapis.com/v1/accounts\`).

${rotationAndErrors("google_business_profile", SCOPES)}
`;
