import {
  credentialTable,
  oauthClientSteps,
  oauthSection,
  refreshTokenSteps,
  rotationAndErrors,
} from "@/lib/platforms/google/workspace-common";

// Plain-markdown page served at /docs/connections/google_slides.md.

const SCOPES = ["https://www.googleapis.com/auth/drive.readonly", "https://www.googleapis.com/auth/drive.file"];

export const slidesDocs = `# Google Slides

Finds and reads Google Slides presentations (every slide's text and the \`{{placeholders}}\` it contains) and makes new presentations from a template deck, through the Google Slides API (v1) and the Google Drive API (v3).

Making a deck from a template is one write: Patchbay copies the template (Drive \`files.copy\`) under the title you give, then replaces each \`{{name}}\` in the copy's text with your value (Slides \`presentations.batchUpdate\` with \`replaceAllText\`). The template itself never changes. The answer carries the new deck's ID and URL and how many times each placeholder was replaced (0 for a name the template does not contain). If the replacement fails after the copy was made, the error names the copy so it can be removed.

${credentialTable(SCOPES, "the Google account that can open the template decks")}

## Where each credential comes from

${oauthClientSteps("Google Slides API** and **Google Drive API")}

${refreshTokenSteps(SCOPES)}

## Scopes

- \`https://www.googleapis.com/auth/drive.readonly\`: see and download every file the account can open, so Patchbay can read any presentation and copy any template the account has (a template is a file Patchbay did not create).
- \`https://www.googleapis.com/auth/drive.file\`: create files and change only those Patchbay created. Copying the template needs it (\`files.copy\` accepts \`drive\` or \`drive.file\`), and the copy, being Patchbay's, can then be filled in by \`presentations.batchUpdate\`.

Together they are narrower than \`https://www.googleapis.com/auth/presentations\` (edit every presentation): Patchbay cannot change the decks people already have.

Patchbay checks the credentials by reading the account behind the token (\`GET https://www.googleapis.com/drive/v3/about?fields=user(…)\`); the connection is named after its email address.

${rotationAndErrors("google_slides")}
- \`NOT_FOUND: Requested entity was not found.\` / \`File not found: <id>.\` (when running an operation): no presentation has that ID, or the account cannot open it.

${oauthSection(SCOPES)}
`;
