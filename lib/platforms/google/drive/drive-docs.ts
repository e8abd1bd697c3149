import {
  credentialTable,
  oauthClientSteps,
  oauthSection,
  refreshTokenSteps,
  rotationAndErrors,
} from "@/lib/platforms/google/workspace-common";

// Plain-markdown page served at /docs/connections/google_drive.md.

const SCOPES = ["https://www.googleapis.com/auth/drive.readonly", "https://www.googleapis.com/auth/drive.file"];

export const driveDocs = `# Google Drive

Searches Google Drive, reads files' details and the text of Google Docs, Sheets and Slides files, creates folders and copies files, through the Google Drive API (v3). Shared drives the account belongs to are included.

${credentialTable(SCOPES, "the Google account whose Drive Patchbay should reach")}

## Where each credential comes from

${oauthClientSteps("Google Drive API")}

${refreshTokenSteps(SCOPES)}

## Scopes

The narrowest pair that allows what the operations do:

- \`https://www.googleapis.com/auth/drive.readonly\`: see and download every file the account can open. Searching, reading details and exporting a document's text need it: \`drive.file\` alone would show only files Patchbay created, and \`drive.metadata.readonly\` cannot export content.
- \`https://www.googleapis.com/auth/drive.file\`: create files and change only those Patchbay created. Creating a folder and copying a file need it (Drive's \`files.copy\` accepts \`drive\` or \`drive.file\`, not \`drive.readonly\`); the copy is a file Patchbay created.

Patchbay never asks for the full \`https://www.googleapis.com/auth/drive\` scope: it cannot edit, move, share or delete the files people already have.

Patchbay checks the credentials by reading the account behind the token (\`GET https://www.googleapis.com/drive/v3/about?fields=user(…)\`); the connection is named after its email address.

${rotationAndErrors("google_drive")}
- \`File not found: <id>.\` (when running an operation): no file has that ID, or the account cannot open it.
- \`Export only supports Docs Editors files.\`: only Google Docs, Sheets and Slides files can be exported as text.

${oauthSection(SCOPES)}
`;
