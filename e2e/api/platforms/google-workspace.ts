import { expect } from "@playwright/test";
import type { PlatformCase } from "./case";
import { bigqueryProject, workspaceId } from "../../support/stand-ins/google-workspace";

// Google Sheets, Drive, Slides and BigQuery against the Google stand-in (e2e/support/stand-ins/google.ts and
// google-workspace.ts). The stand-in seeds each account's files and project (IDs derived from the account),
// and journals each request with the account of its token, so a test reads its own calls.

const SCOPE = {
  spreadsheets: "https://www.googleapis.com/auth/spreadsheets",
  driveReadonly: "https://www.googleapis.com/auth/drive.readonly",
  driveFile: "https://www.googleapis.com/auth/drive.file",
  bigquery: "https://www.googleapis.com/auth/bigquery",
};
const FILE_FIELDS =
  "id,name,mimeType,description,parents,webViewLink,createdTime,modifiedTime,size,driveId,trashed,owners(displayName,emailAddress)";
const BEARER = { authorization: expect.stringMatching(/^Bearer at_[0-9a-f]+$/) };

const oauth = (scopes: string[]) => ({
  provider: "GOOGLE",
  authorizePath: "/o/oauth2/v2/auth",
  pkce: true,
  scopes: ["openid", "email", ...scopes],
  accountName: (account: string) => `${account}@example.com`,
  refresh: true,
});

const manual = {
  good: (account: string) => ({
    client_id: "wl-client.apps.googleusercontent.com",
    client_secret: "GOCSPX-white-label",
    refresh_token: `1//${account}`,
  }),
  refused: () => ({
    credentials: {
      client_id: "wl-client.apps.googleusercontent.com",
      client_secret: "GOCSPX-white-label",
      refresh_token: "bad_revoked",
    },
    says: ["invalid_grant", "Token has been expired or revoked"],
  }),
};

/** The account's seeded Drive files (google-workspace.ts). */
const filesOf = (account: string) => ({
  reports: workspaceId(account, "reports"),
  q3: workspaceId(account, "q3-plan"),
  leads: workspaceId(account, "leads"),
  template: workspaceId(account, "template"),
  invoice: workspaceId(account, "invoice"),
});

const rateLimitSays = ["Google's rate limit was reached", "RESOURCE_EXHAUSTED", "60 s"];
const CREDENTIALS = ["client_id", "client_secret", "refresh_token"];

// ---- Google Sheets ----

const sheets: PlatformCase = {
  type: "google_sheets",
  name: "Google Sheets",
  credentialFields: CREDENTIALS,
  oauth: oauth([SCOPE.spreadsheets]),
  manual,
  // The spreadsheet the user names (its URL, as people paste it): the account's "Leads".
  prepare: async ({ account }) => ({ sheet: filesOf(account).leads }),
  reads: [
    {
      op: "google_sheets.spreadsheet.get",
      input: ({ p }) => ({ spreadsheet_id: `https://docs.google.com/spreadsheets/d/${p.sheet}/edit#gid=0` }),
      check(result, { p }) {
        expect(result).toEqual({
          spreadsheet_id: p.sheet,
          title: "Leads",
          url: `https://docs.google.com/spreadsheets/d/${p.sheet}/edit`,
          locale: "en_US",
          time_zone: "Europe/Berlin",
          sheets: [{ sheet_id: 0, title: "Sheet1", index: 0, type: "GRID", row_count: 1000, column_count: 26 }],
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v4/spreadsheets/${p.sheet}`]);
        expect(requests[0].query).toEqual({
          fields:
            "spreadsheetId,spreadsheetUrl,properties(title,locale,timeZone),sheets(properties(sheetId,title,index,sheetType,gridProperties(rowCount,columnCount)))",
        });
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
    {
      op: "google_sheets.values.get",
      input: ({ p }) => ({ spreadsheet_id: p.sheet, range: "Sheet1!A1:C4", header_row: true }),
      check(result, { p }) {
        expect(result).toEqual({
          spreadsheet_id: p.sheet,
          range: "Sheet1!A1:C4",
          row_count: 4,
          values: [
            ["Name", "Email", "Score"],
            ["Ada Lovelace", "ada@example.com", "92"],
            ["Grace Hopper", "grace@example.com", "88"],
            ["Alan Turing", "alan@example.com", "95"],
          ],
          rows: [
            { Name: "Ada Lovelace", Email: "ada@example.com", Score: "92" },
            { Name: "Grace Hopper", Email: "grace@example.com", Score: "88" },
            { Name: "Alan Turing", Email: "alan@example.com", Score: "95" },
          ],
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `GET /v4/spreadsheets/${p.sheet}/values/Sheet1!A1:C4`,
        ]);
        expect(requests[0].query).toEqual({ majorDimension: "ROWS", valueRenderOption: "FORMATTED_VALUE" });
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
  ],
  writes: [
    {
      op: "google_sheets.values.append",
      input: ({ p, nonce }) => ({
        spreadsheet_id: p.sheet,
        range: "Sheet1!A:C",
        values: [
          ["Edsger Dijkstra", `edsger-${nonce}@example.com`, "90"],
          ["Barbara Liskov", `barbara-${nonce}@example.com`, 97],
        ],
      }),
      summary: ({ p }) => `Append 2 rows to range Sheet1!A:C of Google Sheets spreadsheet 'Leads' (${p.sheet})`,
      check(result, { p }) {
        expect(result).toEqual({
          spreadsheet_id: p.sheet,
          table_range: "Sheet1!A1:C4",
          updated_range: "Sheet1!A5:C6",
          updated_rows: 2,
          updated_columns: 3,
          updated_cells: 6,
        });
      },
      requests(requests, { p, nonce }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /v4/spreadsheets/${p.sheet}/values/Sheet1!A:C:append`,
        ]);
        expect(requests[0].query).toEqual({
          valueInputOption: "USER_ENTERED",
          insertDataOption: "INSERT_ROWS",
          includeValuesInResponse: "false",
        });
        expect(requests[0].json).toEqual({
          range: "Sheet1!A:C",
          majorDimension: "ROWS",
          values: [
            ["Edsger Dijkstra", `edsger-${nonce}@example.com`, "90"],
            ["Barbara Liskov", `barbara-${nonce}@example.com`, 97],
          ],
        });
        expect(requests[0].headers).toMatchObject({ ...BEARER, "content-type": "application/json" });
      },
      refusal: ({ p, nonce }) => ({
        input: { spreadsheet_id: p.sheet, range: "Nope!A:C", values: [[nonce]] },
        says: ["Google", "Unable to parse range: Nope!A:C"],
      }),
    },
    {
      op: "google_sheets.values.update",
      input: ({ p }) => ({ spreadsheet_id: p.sheet, range: "Sheet1!C2:C3", values: [[99], ["77"]] }),
      summary: ({ p }) =>
        `Overwrite range Sheet1!C2:C3 of Google Sheets spreadsheet 'Leads' (${p.sheet}) with 99; 77 (now 92; 88)`,
      check(result, { p }) {
        expect(result).toEqual({
          spreadsheet_id: p.sheet,
          updated_range: "Sheet1!C2:C3",
          updated_rows: 2,
          updated_columns: 1,
          updated_cells: 2,
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `PUT /v4/spreadsheets/${p.sheet}/values/Sheet1!C2:C3`,
        ]);
        expect(requests[0].query).toEqual({ valueInputOption: "USER_ENTERED", includeValuesInResponse: "false" });
        expect(requests[0].json).toEqual({ range: "Sheet1!C2:C3", majorDimension: "ROWS", values: [[99], ["77"]] });
      },
      refusal: ({ p, nonce }) => ({
        input: { spreadsheet_id: p.sheet, range: "Sheet1!C2:C2", values: [[1], [nonce]] },
        says: ["Requested writing within range [Sheet1!C2:C2], but tried writing to row [3]"],
      }),
    },
  ],
  rateLimit: {
    op: "google_sheets.values.get",
    input: ({ p }) => ({ spreadsheet_id: p.sheet, range: "Sheet1" }),
    says: rateLimitSays,
  },
  searches: [
    { ask: "add these rows to the google sheet", first: "google_sheets.values.append" },
    { ask: "read cells A1:D20 from the spreadsheet", first: "google_sheets.values.get" },
    { ask: "overwrite cell B2 in the spreadsheet", first: "google_sheets.values.update" },
    { ask: "what tabs does this spreadsheet have", first: "google_sheets.spreadsheet.get" },
  ],
};

// ---- Google Drive ----

const drive: PlatformCase = {
  type: "google_drive",
  name: "Google Drive",
  credentialFields: CREDENTIALS,
  oauth: oauth([SCOPE.driveReadonly, SCOPE.driveFile]),
  manual,
  prepare: async ({ account }) => filesOf(account),
  reads: [
    {
      op: "google_drive.files.search",
      input: ({ p }) => ({ folder_id: `https://drive.google.com/drive/folders/${p.reports}`, page_size: 10 }),
      check(result, { p, account }) {
        expect(result).toEqual({
          query: `trashed = false and '${p.reports}' in parents`,
          files: [
            {
              id: p.q3,
              name: "Q3 plan",
              mime_type: "application/vnd.google-apps.document",
              description: null,
              url: `https://docs.google.com/document/d/${p.q3}/edit?usp=drivesdk`,
              parents: [p.reports],
              created_time: "2026-11-20T09:30:00.000Z",
              modified_time: "2026-11-25T08:00:00.000Z",
              size_bytes: null,
              drive_id: null,
              trashed: false,
              owners: [`${account}@example.com`],
            },
          ],
          next_page_token: null,
          incomplete_search: false,
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /drive/v3/files"]);
        expect(requests[0].query).toEqual({
          q: `trashed = false and '${p.reports}' in parents`,
          fields: `nextPageToken,incompleteSearch,files(${FILE_FIELDS})`,
          pageSize: "10",
          orderBy: "modifiedTime desc",
          corpora: "allDrives",
          supportsAllDrives: "true",
          includeItemsFromAllDrives: "true",
        });
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
    {
      op: "google_drive.file.get",
      input: ({ p }) => ({ file_id: p.leads }),
      check(result, { p }) {
        expect(result).toMatchObject({
          id: p.leads,
          name: "Leads",
          mime_type: "application/vnd.google-apps.spreadsheet",
          url: `https://docs.google.com/spreadsheets/d/${p.leads}/edit?usp=drivesdk`,
          trashed: false,
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /drive/v3/files/${p.leads}`]);
        expect(requests[0].query).toEqual({ fields: FILE_FIELDS, supportsAllDrives: "true" });
      },
    },
    {
      op: "google_drive.file.export",
      input: ({ p }) => ({ file_id: `https://docs.google.com/document/d/${p.q3}/edit`, mime_type: "text/markdown" }),
      check(result, { p }) {
        const text = "Q3 plan\n\nGrow revenue by 20% in the EU.\nHire two account managers.\n";
        expect(result).toEqual({
          file_id: p.q3,
          mime_type: "text/markdown",
          characters: text.length,
          truncated: false,
          text,
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /drive/v3/files/${p.q3}/export`]);
        expect(requests[0].query).toEqual({ mimeType: "text/markdown" });
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
  ],
  writes: [
    {
      op: "google_drive.folder.create",
      input: ({ p, nonce }) => ({ name: `Q4 reports ${nonce}`, parent_id: p.reports }),
      summary: ({ p, nonce }) =>
        `Create the folder 'Q4 reports ${nonce}' in Google Drive folder 'Reports' (${p.reports})`,
      check(result, { p, nonce }) {
        expect(result).toMatchObject({
          id: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
          name: `Q4 reports ${nonce}`,
          mime_type: "application/vnd.google-apps.folder",
          parents: [p.reports],
          url: expect.stringMatching(/^https:\/\/drive\.google\.com\/drive\/folders\//),
        });
      },
      requests(requests, { p, nonce }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /drive/v3/files"]);
        expect(requests[0].query).toEqual({ fields: FILE_FIELDS, supportsAllDrives: "true" });
        expect(requests[0].json).toEqual({
          name: `Q4 reports ${nonce}`,
          mimeType: "application/vnd.google-apps.folder",
          parents: [p.reports],
        });
        expect(requests[0].headers).toMatchObject({ ...BEARER, "content-type": "application/json" });
      },
      // A document is not a folder: Drive answers as for a folder it cannot find.
      refusal: ({ p, nonce }) => ({
        input: { name: `Misplaced ${nonce}`, parent_id: p.q3 },
        says: ["Google", `File not found: ${p.q3}.`],
      }),
    },
    {
      op: "google_drive.file.copy",
      input: ({ p, nonce }) => ({ file_id: p.q3, name: `Q3 plan ${nonce}`, parent_id: p.reports }),
      summary: ({ p, nonce }) =>
        `Copy Google Drive file 'Q3 plan' (${p.q3}) as 'Q3 plan ${nonce}' in Google Drive folder 'Reports' (${p.reports})`,
      check(result, { p, nonce }) {
        expect(result).toMatchObject({
          id: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
          name: `Q3 plan ${nonce}`,
          mime_type: "application/vnd.google-apps.document",
          parents: [p.reports],
        });
        expect(result.id).not.toBe(p.q3);
      },
      requests(requests, { p, nonce }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /drive/v3/files/${p.q3}/copy`]);
        expect(requests[0].query).toEqual({ fields: FILE_FIELDS, supportsAllDrives: "true" });
        expect(requests[0].json).toEqual({ name: `Q3 plan ${nonce}`, parents: [p.reports] });
      },
      refusal: ({ p, nonce }) => ({
        input: { file_id: p.reports, name: `Folder copy ${nonce}` },
        says: ["Google", "This file cannot be copied by the user."],
      }),
    },
  ],
  rateLimit: { op: "google_drive.file.get", input: ({ p }) => ({ file_id: p.q3 }), says: rateLimitSays },
  searches: [
    { ask: "find the budget spreadsheet in google drive", first: "google_drive.files.search" },
    { ask: "read the text of this google doc", first: "google_drive.file.export" },
    { ask: "create a new folder in drive", first: "google_drive.folder.create" },
    { ask: "make a copy of this drive file", first: "google_drive.file.copy" },
  ],
};

// ---- Google Slides ----

const slides: PlatformCase = {
  type: "google_slides",
  name: "Google Slides",
  credentialFields: CREDENTIALS,
  oauth: oauth([SCOPE.driveReadonly, SCOPE.driveFile]),
  manual,
  prepare: async ({ account }) => ({ template: filesOf(account).template }),
  reads: [
    {
      op: "google_slides.presentation.get",
      input: ({ p }) => ({ presentation_id: `https://docs.google.com/presentation/d/${p.template}/edit#slide=id.p1` }),
      check(result, { p }) {
        expect(result).toEqual({
          presentation_id: p.template,
          title: "Quarterly review template",
          url: `https://docs.google.com/presentation/d/${p.template}/edit`,
          slide_count: 2,
          placeholders: [
            { name: "client_name", placeholder: "{{client_name}}", occurrences: 2, slides: [1, 2] },
            { name: "owner", placeholder: "{{owner}}", occurrences: 1, slides: [1] },
            { name: "quarter", placeholder: "{{quarter}}", occurrences: 1, slides: [2] },
            { name: "revenue", placeholder: "{{revenue}}", occurrences: 1, slides: [2] },
          ],
          slides: [
            { slide_id: "p1", number: 1, text: ["{{client_name}} — Quarterly review", "Prepared by {{owner}}"] },
            {
              slide_id: "p2",
              number: 2,
              text: ["Revenue in {{quarter}}: {{revenue}}", "Next steps for {{client_name}}"],
            },
          ],
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/presentations/${p.template}`]);
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
    {
      op: "google_slides.presentations.search",
      input: () => ({ name_contains: "template" }),
      check(result, { p }) {
        expect(result).toEqual({
          presentations: [
            {
              presentation_id: p.template,
              name: "Quarterly review template",
              url: `https://docs.google.com/presentation/d/${p.template}/edit?usp=drivesdk`,
              modified_time: "2026-11-20T09:30:00.000Z",
            },
          ],
        });
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /drive/v3/files"]);
        expect(requests[0].query).toEqual({
          q: "mimeType = 'application/vnd.google-apps.presentation' and trashed = false and name contains 'template'",
          fields: "nextPageToken,files(id,name,modifiedTime,webViewLink)",
          pageSize: "25",
          orderBy: "modifiedTime desc",
          corpora: "allDrives",
          supportsAllDrives: "true",
          includeItemsFromAllDrives: "true",
        });
      },
    },
  ],
  writes: [
    {
      op: "google_slides.presentation.create_from_template",
      input: ({ p, nonce }) => ({
        template_id: p.template,
        title: `Acme review ${nonce}`,
        replacements: { client_name: `Acme ${nonce}`, "{{quarter}}": "Q4 2026", revenue: "1.2M USD", region: "EU" },
      }),
      summary: ({ p, nonce }) =>
        `Copy Google Slides template 'Quarterly review template' (${p.template}) as 'Acme review ${nonce}' and replace ` +
        `{{client_name}} → 'Acme ${nonce}', {{quarter}} → 'Q4 2026', {{revenue}} → '1.2M USD', {{region}} → 'EU' (not in the template)`,
      check(result, { p, nonce }) {
        expect(result).toEqual({
          presentation_id: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
          url: `https://docs.google.com/presentation/d/${result.presentation_id}/edit`,
          title: `Acme review ${nonce}`,
          template_id: p.template,
          replacements: [
            { placeholder: "{{client_name}}", occurrences_changed: 2 },
            { placeholder: "{{quarter}}", occurrences_changed: 1 },
            { placeholder: "{{revenue}}", occurrences_changed: 1 },
            { placeholder: "{{region}}", occurrences_changed: 0 },
          ],
        });
        expect(result.presentation_id).not.toBe(p.template);
      },
      requests(requests, { p, nonce }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /drive/v3/files/${p.template}/copy`,
          expect.stringMatching(/^POST \/v1\/presentations\/[A-Za-z0-9_-]{20,}:batchUpdate$/),
        ]);
        const [copy, update] = requests;
        expect(copy.query).toEqual({ fields: FILE_FIELDS, supportsAllDrives: "true" });
        expect(copy.json).toEqual({ name: `Acme review ${nonce}` });
        expect(update.path).not.toContain(p.template);
        const replace = (text: string, replaceText: string) => ({
          replaceAllText: { containsText: { text, matchCase: true }, replaceText },
        });
        expect(update.json).toEqual({
          requests: [
            replace("{{client_name}}", `Acme ${nonce}`),
            replace("{{quarter}}", "Q4 2026"),
            replace("{{revenue}}", "1.2M USD"),
            replace("{{region}}", "EU"),
          ],
        });
        expect(update.headers).toMatchObject({ ...BEARER, "content-type": "application/json" });
      },
      refusal: ({ nonce }) => ({
        input: { template_id: `missing${nonce}deck`, title: "Nothing", replacements: { client_name: "Acme" } },
        says: ["Google", `File not found: missing${nonce}deck.`],
      }),
    },
  ],
  rateLimit: {
    op: "google_slides.presentation.get",
    input: ({ p }) => ({ presentation_id: p.template }),
    says: rateLimitSays,
  },
  searches: [
    {
      ask: "fill in the slides template with the client's name",
      first: "google_slides.presentation.create_from_template",
    },
    { ask: "which placeholders does this google slides deck contain", first: "google_slides.presentation.get" },
    { ask: "find my google slides presentations", first: "google_slides.presentations.search" },
  ],
};

// ---- BigQuery ----

const bigquery: PlatformCase = {
  type: "bigquery",
  name: "BigQuery",
  credentialFields: CREDENTIALS,
  oauth: oauth([SCOPE.bigquery]),
  manual,
  prepare: async ({ account }) => ({ project: bigqueryProject(account) }),
  reads: [
    {
      op: "bigquery.datasets.list",
      input: ({ p }) => ({ project_id: p.project }),
      check(result, { p }) {
        expect(result).toEqual({
          project_id: p.project,
          datasets: [
            { dataset_id: "analytics", name: null, location: "US" },
            { dataset_id: "staging", name: null, location: "US" },
          ],
          next_page_token: null,
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `GET /bigquery/v2/projects/${p.project}/datasets`,
        ]);
        expect(requests[0].query).toEqual({ maxResults: "100" });
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
    {
      op: "bigquery.tables.list",
      input: ({ p }) => ({ project_id: p.project, dataset_id: "analytics", max_results: 50 }),
      check(result, { p }) {
        expect(result).toEqual({
          project_id: p.project,
          dataset_id: "analytics",
          total_tables: 1,
          tables: [{ table_id: "events", type: "TABLE", name: null, created_time: "2026-01-15T00:00:00.000Z" }],
          next_page_token: null,
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `GET /bigquery/v2/projects/${p.project}/datasets/analytics/tables`,
        ]);
        expect(requests[0].query).toEqual({ maxResults: "50" });
      },
    },
    {
      op: "bigquery.query",
      // The stand-in answers a query marked /* slow */ with jobComplete false first: the job is polled.
      input: ({ p }) => ({
        project_id: p.project,
        query: `/* slow */ SELECT country, sessions, created_at FROM \`${p.project}.analytics.events\` WHERE country = 'DE'`,
        maximum_bytes_billed: 100_000_000,
      }),
      check(result, { p }) {
        expect(result).toEqual({
          project_id: p.project,
          dry_run: false,
          job_complete: true,
          job_id: expect.stringMatching(/^job_/),
          location: "US",
          total_bytes_processed: 6_000_000,
          cache_hit: false,
          total_rows: 2,
          schema: [
            { name: "country", type: "STRING", mode: "NULLABLE" },
            { name: "sessions", type: "INTEGER", mode: "NULLABLE" },
            { name: "created_at", type: "TIMESTAMP", mode: "NULLABLE" },
          ],
          rows: [
            { country: "DE", sessions: 120, created_at: "2025-11-01T00:00:00.000Z" },
            { country: "DE", sessions: 131, created_at: "2025-11-01T03:00:00.000Z" },
          ],
          more_rows: false,
        });
      },
      requests(requests, { p }) {
        const sql = `/* slow */ SELECT country, sessions, created_at FROM \`${p.project}.analytics.events\` WHERE country = 'DE'`;
        // First BigQuery's own reading of the text (a dry-run query job), then the run.
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /bigquery/v2/projects/${p.project}/jobs`,
          `POST /bigquery/v2/projects/${p.project}/queries`,
          expect.stringMatching(new RegExp(`^GET /bigquery/v2/projects/${p.project}/queries/job_[A-Za-z0-9_-]+$`)),
        ]);
        expect(requests[0].json).toEqual({
          jobReference: { projectId: p.project },
          configuration: {
            dryRun: true,
            query: { query: sql, useLegacySql: false, maximumBytesBilled: "100000000" },
          },
        });
        expect(requests[1].json).toEqual({
          query: sql,
          useLegacySql: false,
          maximumBytesBilled: "100000000",
          dryRun: false,
          timeoutMs: 8000,
          maxResults: 100,
        });
        expect(requests[1].headers).toMatchObject({ ...BEARER, "content-type": "application/json" });
        expect(requests[2].query).toEqual({ location: "US", timeoutMs: "8000", maxResults: "100" });
      },
    },
  ],
  writes: [
    {
      op: "bigquery.rows.insert",
      input: ({ p }) => ({
        project_id: p.project,
        dataset_id: "analytics",
        table_id: "events",
        rows: [
          { event_date: "2026-11-03", country: "DE", sessions: 140, revenue: 300.5, is_paid: true },
          { event_date: "2026-11-03", country: "US", sessions: 390, revenue: 1100, is_paid: true },
        ],
      }),
      summary: ({ p }) => `Insert 2 rows into BigQuery table ${p.project}.analytics.events (now about 6 rows)`,
      check(result, { p }) {
        expect(result).toEqual({
          table: `${p.project}.analytics.events`,
          inserted_rows: 2,
          insert_ids: [expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)],
          errors: [],
        });
        expect(result.insert_ids[0]).not.toBe(result.insert_ids[1]);
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /bigquery/v2/projects/${p.project}/datasets/analytics/tables/events/insertAll`,
        ]);
        expect(requests[0].json).toEqual({
          kind: "bigquery#tableDataInsertAllRequest",
          skipInvalidRows: false,
          ignoreUnknownValues: false,
          rows: [
            {
              insertId: expect.stringMatching(/^[0-9a-f]{32}$/),
              json: { event_date: "2026-11-03", country: "DE", sessions: 140, revenue: 300.5, is_paid: true },
            },
            {
              insertId: expect.stringMatching(/^[0-9a-f]{32}$/),
              json: { event_date: "2026-11-03", country: "US", sessions: 390, revenue: 1100, is_paid: true },
            },
          ],
        });
      },
      refusal: ({ p }) => ({
        input: {
          project_id: p.project,
          dataset_id: "analytics",
          table_id: "events",
          rows: [{ country: "DE" }, { colour: "red" }],
        },
        says: ["BigQuery inserted none of the 2 rows", "row 1: invalid (colour): no such field: colour."],
      }),
    },
  ],
  rateLimit: { op: "bigquery.datasets.list", input: ({ p }) => ({ project_id: p.project }), says: rateLimitSays },
  searches: [
    { ask: "run a sql query in bigquery", first: "bigquery.query" },
    { ask: "list the tables of a bigquery dataset", first: "bigquery.tables.list" },
    { ask: "insert these rows into the bigquery table", first: "bigquery.rows.insert" },
    { ask: "which datasets does my bigquery project have", first: "bigquery.datasets.list" },
  ],
};

export const googleWorkspace: PlatformCase[] = [sheets, drive, slides, bigquery];
