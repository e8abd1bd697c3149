import {
  credentialTable,
  oauthClientSteps,
  oauthSection,
  refreshTokenSteps,
  rotationAndErrors,
} from "@/lib/platforms/google/workspace-common";

// Plain-markdown page served at /docs/connections/google_sheets.md.

const SCOPE = "https://www.googleapis.com/auth/spreadsheets";

export const sheetsDocs = `# Google Sheets

Reads and writes Google Sheets spreadsheets through the Google Sheets API (v4): a spreadsheet's tabs, the values of a range, appending rows and overwriting a range.

${credentialTable([SCOPE], "the Google account that can open and edit the spreadsheets")}

## Where each credential comes from

${oauthClientSteps("Google Sheets API")}

${refreshTokenSteps([SCOPE])}

The Google account must be able to open the spreadsheets (owner, or shared with it as **Editor** for the writes, **Viewer** for the reads).

## Scopes

- \`${SCOPE}\`: see, edit, create and delete the account's spreadsheets. The Sheets API has no narrower scope that writes: \`spreadsheets.readonly\` cannot append or update, and \`drive.file\` reaches only files Patchbay itself created or the user opened with it, not the spreadsheets people already have.

Spreadsheets are addressed by their ID, the long part after \`/d/\` in the URL (\`https://docs.google.com/spreadsheets/d/<ID>/edit\`); the whole URL is accepted too. Ranges are A1 notation (\`Sheet1!A1:D20\`, \`'My tab'!A:C\`).

Sheets has no "who am I" call. Patchbay checks posted credentials with Google's token information endpoint (\`GET https://oauth2.googleapis.com/tokeninfo\`): the refreshed access token must carry the scope above, or the post is refused with \`PERMISSION_DENIED: Request had insufficient authentication scopes\`.

${rotationAndErrors("google_sheets")}
- \`NOT_FOUND: Requested entity was not found.\` (when running an operation): no spreadsheet has that ID, or the Google account cannot open it.
- \`INVALID_ARGUMENT: Unable to parse range: …\`: the range is not valid A1 notation, or names a tab the spreadsheet does not have.

${oauthSection([SCOPE])}
`;
