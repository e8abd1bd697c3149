import { createHash } from "node:crypto";
import type { Reply, StandInRequest } from "./stand-in-server";
import type { GoogleExtension, GoogleKit } from "./google";

// Google Sheets, Drive, Slides and BigQuery, served by the Google stand-in (google.ts) beside its sign-in and token
// endpoints, at their real paths and in Google's wire format ({error: {code, message, status, errors|details}}).
// Every API route answers 401 UNAUTHENTICATED without a token it issued, 403 PERMISSION_DENIED "Request had
// insufficient authentication scopes." when the token lacks every scope Google accepts for the method, and
// Google's 429 RESOURCE_EXHAUSTED (Retry-After 1 for `throttled-once…` accounts, 60 for other `throttled…`) on
// the operation routes. State is in memory per account (the token's), so writes are seen by later reads.
//
// - GET /tokeninfo?access_token=: {azp, aud, sub, scope, exp, expires_in, email, email_verified, access_type}
//   (an unknown token: 400 invalid_token "Invalid Value"). Sheets' identity check; not rate-limited.
// - Sheets API v4 (spreadsheets; reads also spreadsheets.readonly, drive, drive.readonly): any ID of 10+ of
//   [A-Za-z0-9_-] not starting with `missing` is a spreadsheet "Leads" with one tab "Sheet1" (sheetId 0) holding
//   Name / Email / Score and three rows, made on first use (IDs beginning `missing` → 404 NOT_FOUND "Requested
//   entity was not found."). GET /v4/spreadsheets/{id} (tabs, grid size); GET …/values/{range} (A1 notation:
//   Sheet1!A1:C4, 'My tab'!A:C, Sheet1, A1:C4 = first tab; another tab or bad syntax → 400 INVALID_ARGUMENT "Unable
//   to parse range: …"; valueRenderOption FORMATTED_VALUE answers strings); POST …/values/{range}:append
//   (valueInputOption required, USER_ENTERED turns numeric text into numbers; rows go after the last non-empty
//   row, INSERT_ROWS inserts, OVERWRITE writes over; answers {spreadsheetId, tableRange, updates}); PUT
//   …/values/{range} (from the range's top-left cell; more rows or columns than a bounded range → 400
//   "Requested writing within range [...], but tried writing to row [n]" / "column [X]").
// - Drive API v3 (reads: drive, drive.readonly, drive.file for files the app created; files.create and
//   files.copy: drive or drive.file). Each account's Drive holds: folder "Reports", in it the Google Doc
//   "Q3 plan", and at the top a spreadsheet "Leads", a presentation "Quarterly review template" and a PDF
//   "Invoice 1042.pdf"; IDs are workspaceId(account, "reports" | "q3-plan" | "leads" | "template" | "invoice").
//   GET /drive/v3/about (identity; not rate-limited); GET /drive/v3/files (q terms joined by `and`: trashed =
//   false, name contains '…', fullText contains '…', mimeType = '…', '<id>' in parents, a parenthesised group
//   of them; anything else → 400 "Invalid Value" at q; orderBy with fullText → 400 "Sorting is not supported for
//   queries with fullText terms. Results are always in descending relevance order."; pageSize, pageToken);
//   GET /drive/v3/files/{id} (unknown → 404 "File not found: {id}."); POST /drive/v3/files (metadata only:
//   name, mimeType, parents, description; a parent that is not a folder → 404 "File not found: …");
//   POST /drive/v3/files/{id}/copy (name default "Copy of …"; folders → 403 cannotCopyFile "This file cannot
//   be copied by the user."); GET /drive/v3/files/{id}/export?mimeType= (text of a Doc (text/plain,
//   text/markdown, text/html), CSV of a spreadsheet's first tab (text/csv), a deck's text (text/plain); another
//   file → 403 fileNotExportable "Export only supports Docs Editors files.", another format → 400 badRequest
//   "The requested conversion is not supported.").
// - Slides API v1 (get: presentations(.readonly), drive(.readonly), drive.file for the app's files;
//   batchUpdate: presentations, drive, drive.file for the app's files): any well-formed ID not starting with
//   `missing` is a presentation "Quarterly review template" made on first use: slide 1 "{{client_name}} —
//   Quarterly review" (the placeholder split over two text runs) and "Prepared by {{owner}}", slide 2 "Revenue
//   in {{quarter}}: {{revenue}}" in a table cell and "Next steps for {{client_name}}". GET
//   /v1/presentations/{id}; POST /v1/presentations/{id}:batchUpdate (replaceAllText only, over each shape's
//   whole text, matchCase honoured; an empty containsText.text → 400 INVALID_ARGUMENT; other requests → 400
//   "Invalid JSON payload received. Unknown name …"; answers replies[].replaceAllText.occurrencesChanged).
// - BigQuery API v2 (reads: bigquery, bigquery.readonly, cloud-platform; jobs.query and getQueryResults:
//   bigquery, cloud-platform; insertAll: bigquery, bigquery.insertdata, cloud-platform). Each account has one
//   project bigqueryProject(account) with datasets "analytics" (table "events": event_date DATE, country STRING,
//   sessions INTEGER, revenue FLOAT, is_paid BOOLEAN, created_at TIMESTAMP; 6 rows) and "staging" (no tables);
//   another project → 404 "Not found: Project …". GET /bigquery/v2/projects (identity and an operation);
//   GET …/projects/{p}/datasets; GET …/datasets/{d}/tables; GET …/tables/{t}; POST …/tables/{t}/insertAll (rows
//   [{insertId, json}]; an unknown column → insertErrors "no such field: x." unless ignoreUnknownValues, a value
//   of the wrong type → "Cannot convert value to integer." …; with skipInvalidRows false nothing is inserted and
//   the other rows are "stopped"; an insertId seen before is dropped); POST …/projects/{p}/queries (useLegacySql
//   must be false; SELECT columns | * | COUNT(*) AS n FROM `p.d.t` [WHERE col = 'v'] [LIMIT n], or SELECT
//   literals without FROM; bytes processed = 1 MB per row scanned, billed at least 10 MB; over
//   maximumBytesBilled → 400 bytesBilledLimitExceeded "Query exceeded limit for bytes billed: …"; dryRun answers
//   schema and totalBytesProcessed only; a query containing /* slow */ answers jobComplete false first, one
//   containing /* chunked */ is sent in chunks without a content-length, any other finished one with it) and GET …/projects/{p}/queries/{jobId}
//   (the finished job's rows). POST …/projects/{p}/jobs (jobs.insert; bigquery, cloud-platform) takes dry-run
//   query jobs only ({configuration: {dryRun: true, query: {query, useLegacySql: false}}}; anything else → 400)
//   and answers the Job resource: status DONE, statistics.query.statementType (bigqueryStatementType below:
//   SELECT, DELETE, DROP_TABLE, CREATE_TABLE_AS_SELECT …; SCRIPT for several statements or a procedural one),
//   and for a SELECT the schema and totalBytesProcessed of the query above; text GoogleSQL cannot read (an
//   unclosed string, an unknown statement) → 400 invalidQuery "Syntax error: …". A query holding the comment
//   /* stand-in statementType: X */ is reported as X: a stand-in for a lexer rule a client's own check misses.

type Cell = string | number | boolean | null;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped

const SCOPE = {
  spreadsheets: "https://www.googleapis.com/auth/spreadsheets",
  spreadsheetsReadonly: "https://www.googleapis.com/auth/spreadsheets.readonly",
  drive: "https://www.googleapis.com/auth/drive",
  driveReadonly: "https://www.googleapis.com/auth/drive.readonly",
  driveFile: "https://www.googleapis.com/auth/drive.file",
  presentations: "https://www.googleapis.com/auth/presentations",
  presentationsReadonly: "https://www.googleapis.com/auth/presentations.readonly",
  bigquery: "https://www.googleapis.com/auth/bigquery",
  bigqueryReadonly: "https://www.googleapis.com/auth/bigquery.readonly",
  bigqueryInsert: "https://www.googleapis.com/auth/bigquery.insertdata",
  cloud: "https://www.googleapis.com/auth/cloud-platform",
  cloudReadonly: "https://www.googleapis.com/auth/cloud-platform.read-only",
};

/** The Drive ID of one of an account's seeded files (see the header), e.g. workspaceId(account, "leads"). */
export function workspaceId(account: string, key: string): string {
  return `1${createHash("sha256").update(`${account}/${key}`).digest("base64url").slice(0, 32)}`;
}
/** The one BigQuery project of an account. */
export function bigqueryProject(account: string): string {
  return `analytics-${createHash("sha256").update(`bq:${account}`).digest("hex").slice(0, 8)}`;
}

const MIME = {
  folder: "application/vnd.google-apps.folder",
  doc: "application/vnd.google-apps.document",
  sheet: "application/vnd.google-apps.spreadsheet",
  deck: "application/vnd.google-apps.presentation",
  pdf: "application/pdf",
};
const WELL_FORMED = /^[A-Za-z0-9_-]{10,}$/;
const NOW = "2026-11-20T09:30:00.000Z";

type DriveFile = {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  description?: string;
  createdTime: string;
  modifiedTime: string;
  trashed: boolean;
  size?: string;
  content?: string;
  /** Created by the app (files.create / files.copy): what drive.file reaches. */
  byApp: boolean;
};
type Sheet = { sheetId: number; title: string; rows: Cell[][]; rowCount: number; columnCount: number };
type Run = { content: string };
type Shape = { objectId: string; runs: Run[]; inTable?: boolean };
type Slide = { objectId: string; shapes: Shape[] };
type BqField = { name: string; type: string; mode: string };
type BqTable = { fields: BqField[]; rows: Record<string, Cell>[]; insertIds: Set<string>; created: number };
type Answer = { fields: BqField[]; totalRows: number; bytes: number; rows: Json[]; more: boolean };
type Job = { projectId: string; jobId: string; answer: Json };
type Account = {
  email: string;
  root: string;
  files: Map<string, DriveFile>;
  sheets: Map<string, Sheet[]>;
  decks: Map<string, Slide[]>;
  project: string;
  datasets: Map<string, Map<string, BqTable>>;
  jobs: Map<string, Job>;
};

// ---- A1 notation ----

const colIndex = (letters: string) => [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
const colLetters = (i: number): string =>
  (i < 26 ? "" : colLetters(Math.floor(i / 26) - 1)) + String.fromCharCode(65 + (i % 26));
const sheetRef = (title: string) => (/^[A-Za-z0-9_]+$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`);

type Parsed = { sheet: Sheet; r1: number; c1: number; r2: number | null; c2: number | null };

/** "Sheet1!A1:C4", "'My tab'!A:C", "Sheet1", "A1:C4" → the tab and 0-based bounds (null = open), or null. */
function parseRange(sheets: Sheet[], range: string): Parsed | null {
  let title: string | null = null;
  let cells = "";
  if (range.startsWith("'")) {
    const m = /^'((?:[^']|'')+)'(?:!(.*))?$/.exec(range);
    if (!m) return null;
    title = m[1].replace(/''/g, "'");
    cells = m[2] ?? "";
  } else if (range.includes("!")) {
    [title, cells] = [range.slice(0, range.indexOf("!")), range.slice(range.indexOf("!") + 1)];
  } else if (/^[A-Za-z]{1,3}\d*(:[A-Za-z]{1,3}\d*)?$/.test(range) && !sheets.some((s) => s.title === range)) {
    cells = range;
  } else title = range;
  const sheet = title === null ? sheets[0] : sheets.find((s) => s.title === title);
  if (!sheet) return null;
  if (!cells) return { sheet, r1: 0, c1: 0, r2: null, c2: null };
  const m = /^([A-Za-z]{1,3})?(\d+)?(?::([A-Za-z]{1,3})?(\d+)?)?$/.exec(cells);
  if (!m || (!m[1] && !m[2])) return null;
  const c1 = m[1] ? colIndex(m[1]) : 0;
  const r1 = m[2] ? Number(m[2]) - 1 : 0;
  const single = cells.indexOf(":") < 0;
  const c2 = single ? (m[1] ? c1 : null) : m[3] ? colIndex(m[3]) : null;
  const r2 = single ? (m[2] ? r1 : null) : m[4] ? Number(m[4]) - 1 : null;
  if (r1 < 0) return null;
  return { sheet, r1, c1, r2, c2 };
}
const a1 = (s: Sheet, r1: number, c1: number, r2: number, c2: number) =>
  `${sheetRef(s.title)}!${colLetters(c1)}${r1 + 1}:${colLetters(c2)}${r2 + 1}`;

function userEntered(v: Cell): Cell {
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toUpperCase() === "TRUE";
  return v;
}
const formatted = (v: Cell): Cell =>
  v === null ? "" : typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : typeof v === "number" ? String(v) : v;

// ---- Drive search ----

const LITERAL = String.raw`'((?:[^'\\]|\\.)*)'`;
const unescape = (v: string) => v.replace(/\\(.)/g, "$1");

/** Splits a Drive query at top-level ` and ` (outside quotes and parentheses). */
function splitAnd(q: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < q.length; i++) {
    const c = q[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === "'") quoted = false;
    } else if (c === "'") quoted = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (depth === 0 && q.slice(i, i + 5).toLowerCase() === " and ") {
      parts.push(q.slice(start, i));
      start = i + 5;
      i += 4;
    }
  }
  parts.push(q.slice(start));
  return parts.map((p) => p.trim());
}

/** A predicate for one Drive query (the subset in the header), or null when Drive would call it invalid. */
function driveFilter(q: string, textOf: (f: DriveFile) => string): ((f: DriveFile) => boolean) | null {
  const tests: ((f: DriveFile) => boolean)[] = [];
  for (const term of splitAnd(q)) {
    let m: RegExpExecArray | null;
    if (/^\(.*\)$/s.test(term)) {
      const inner = driveFilter(term.slice(1, -1), textOf);
      if (!inner) return null;
      tests.push(inner);
    } else if ((m = /^trashed\s*=\s*(true|false)$/i.exec(term))) {
      const want = m[1].toLowerCase() === "true";
      tests.push((f) => f.trashed === want);
    } else if ((m = new RegExp(`^name\\s+contains\\s+${LITERAL}$`, "i").exec(term))) {
      const v = unescape(m[1]).toLowerCase();
      tests.push((f) => f.name.toLowerCase().includes(v));
    } else if ((m = new RegExp(`^fullText\\s+contains\\s+${LITERAL}$`, "i").exec(term))) {
      const v = unescape(m[1]).toLowerCase();
      tests.push((f) => `${f.name} ${f.description ?? ""} ${textOf(f)}`.toLowerCase().includes(v));
    } else if ((m = new RegExp(`^mimeType\\s*(=|!=)\\s*${LITERAL}$`, "i").exec(term))) {
      const [op, v] = [m[1], unescape(m[2])];
      tests.push((f) => (f.mimeType === v) === (op === "="));
    } else if ((m = new RegExp(`^${LITERAL}\\s+in\\s+parents$`, "i").exec(term))) {
      const v = unescape(m[1]);
      tests.push((f) => f.parents.includes(v));
    } else return null;
  }
  return (f) => tests.every((t) => t(f));
}

// ---- GoogleSQL statement types (what a dry run reports) ----

const isLineBreak = (c: string | undefined) => c === "\n" || c === "\r";

/**
 * The statements of a GoogleSQL text, split at each `;` outside comments, strings and quoted
 * identifiers, lexed as BigQuery does: `--` and `#` comments end at \n or \r; strings and quoted
 * identifiers take backslash escapes; only triple-quoted strings span lines. Null when BigQuery
 * could not read it (something left unclosed).
 */
function googleSqlStatements(sql: string): string[] | null {
  const statements: string[] = [];
  let current = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if ((c === "-" && sql[i + 1] === "-") || c === "#") {
      while (i < sql.length && !isLineBreak(sql[i])) i++;
      current += " ";
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return null;
      i = end + 2;
      current += " ";
    } else if (c === "'" || c === '"' || c === "`") {
      const close = c !== "`" && sql.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + close.length;
      while (!sql.startsWith(close, j)) {
        if (j >= sql.length || (close.length === 1 && isLineBreak(sql[j]))) return null;
        j += sql[j] === "\\" ? 2 : 1;
      }
      current += c + c;
      i = j + close.length;
    } else if (c === ";") {
      statements.push(current.trim());
      current = "";
      i++;
    } else {
      current += c;
      i++;
    }
  }
  statements.push(current.trim());
  return statements.filter(Boolean);
}

const PROCEDURAL = ["DECLARE", "SET", "BEGIN", "IF", "LOOP", "WHILE", "REPEAT", "FOR", "EXECUTE", "RAISE"];
const OBJECT_KINDS = ["TABLE", "VIEW", "SCHEMA", "FUNCTION", "PROCEDURE", "MODEL"];

/**
 * JobStatistics2.statementType of a query as BigQuery's dry run reports it (the kinds the stand-in
 * knows), or null for text it cannot read. Several statements, or a procedural one, are a SCRIPT.
 */
function bigqueryStatementType(sql: string): string | null {
  const forced = /\/\*\s*stand-in statementType:\s*([A-Z_]+)\s*\*\//.exec(sql);
  if (forced) return forced[1];
  const statements = googleSqlStatements(sql);
  if (!statements?.length) return null;
  if (statements.length > 1) return "SCRIPT";
  const words = statements[0]
    .toUpperCase()
    .split(/[^A-Z_]+/)
    .filter(Boolean);
  const [first, second] = words;
  if (first === "SELECT" || first === "WITH") return "SELECT";
  if (["INSERT", "UPDATE", "DELETE", "MERGE", "ASSERT", "CALL"].includes(first)) return first;
  if (PROCEDURAL.includes(first)) return "SCRIPT";
  if (["TRUNCATE", "EXPORT", "LOAD"].includes(first) && second) return `${first}_${second}`;
  if (["CREATE", "DROP", "ALTER"].includes(first)) {
    const at = words.findIndex((w) => OBJECT_KINDS.includes(w));
    if (at < 0) return null;
    const kind = ["MATERIALIZED", "EXTERNAL", "SNAPSHOT"].includes(words[at - 1])
      ? `${words[at - 1]}_${words[at]}`
      : words[at];
    if (first === "CREATE" && kind === "TABLE" && words.slice(at).includes("AS")) return "CREATE_TABLE_AS_SELECT";
    return `${first}_${kind}`;
  }
  return null;
}

export const workspace: GoogleExtension = {
  types: ["google_sheets", "google_drive", "google_slides", "bigquery"],
  scopes: Object.values(SCOPE),
  routes(google: GoogleKit) {
    const { apiError, insufficientScopes, unauthenticated } = google;
    const hasScope = (granted: string, ...wanted: string[]) => google.hasScope(granted, ...wanted);
    const accounts = new Map<string, Account>();

    function seed(account: string): Account {
      const id = (key: string) => workspaceId(account, key);
      const file = (f: Partial<DriveFile> & Pick<DriveFile, "id" | "name" | "mimeType">): DriveFile => ({
        parents: [root],
        createdTime: NOW,
        modifiedTime: NOW,
        trashed: false,
        byApp: false,
        ...f,
      });
      const root = `0A${createHash("sha256").update(`root:${account}`).digest("hex").slice(0, 16)}`;
      const a: Account = {
        email: `${account}@example.com`,
        root,
        files: new Map(),
        sheets: new Map(),
        decks: new Map(),
        project: bigqueryProject(account),
        datasets: new Map(),
        jobs: new Map(),
      };
      for (const f of [
        file({ id: id("reports"), name: "Reports", mimeType: MIME.folder }),
        file({
          id: id("q3-plan"),
          name: "Q3 plan",
          mimeType: MIME.doc,
          parents: [id("reports")],
          content: "Q3 plan\n\nGrow revenue by 20% in the EU.\nHire two account managers.\n",
          modifiedTime: "2026-11-25T08:00:00.000Z",
        }),
        file({ id: id("invoice"), name: "Invoice 1042.pdf", mimeType: MIME.pdf, size: "48213" }),
      ])
        a.files.set(f.id, f);
      sheetFile(a, id("leads"));
      deckFile(a, id("template"));
      const events: BqTable = {
        fields: [
          { name: "event_date", type: "DATE", mode: "NULLABLE" },
          { name: "country", type: "STRING", mode: "NULLABLE" },
          { name: "sessions", type: "INTEGER", mode: "NULLABLE" },
          { name: "revenue", type: "FLOAT", mode: "NULLABLE" },
          { name: "is_paid", type: "BOOLEAN", mode: "NULLABLE" },
          { name: "created_at", type: "TIMESTAMP", mode: "NULLABLE" },
        ],
        rows: [
          ["2026-11-01", "DE", 120, 310.5, true],
          ["2026-11-01", "US", 340, 990.25, true],
          ["2026-11-01", "FR", 75, 0, false],
          ["2026-11-02", "DE", 131, 280, true],
          ["2026-11-02", "US", 362, 1010.75, true],
          ["2026-11-02", "FR", 80, 12.5, false],
        ].map(([d, c, s, r, p], i) => ({
          event_date: d,
          country: c,
          sessions: s,
          revenue: r,
          is_paid: p,
          created_at: 1761955200 + i * 3600,
        })),
        insertIds: new Set(),
        created: Date.parse("2026-01-15T00:00:00Z"),
      };
      a.datasets.set("analytics", new Map([["events", events]]));
      a.datasets.set("staging", new Map());
      return a;
    }
    /** A spreadsheet "Leads" under `id` (in Drive too), unless it exists. */
    function sheetFile(a: Account, id: string) {
      if (a.sheets.has(id)) return;
      a.sheets.set(id, [
        {
          sheetId: 0,
          title: "Sheet1",
          rowCount: 1000,
          columnCount: 26,
          rows: [
            ["Name", "Email", "Score"],
            ["Ada Lovelace", "ada@example.com", 92],
            ["Grace Hopper", "grace@example.com", 88],
            ["Alan Turing", "alan@example.com", 95],
          ],
        },
      ]);
      if (!a.files.has(id))
        a.files.set(id, {
          id,
          name: "Leads",
          mimeType: MIME.sheet,
          parents: [a.root],
          createdTime: NOW,
          modifiedTime: NOW,
          trashed: false,
          byApp: false,
        });
    }
    /** A presentation "Quarterly review template" under `id` (in Drive too), unless it exists. */
    function deckFile(a: Account, id: string) {
      if (a.decks.has(id)) return;
      a.decks.set(id, [
        {
          objectId: "p1",
          shapes: [
            { objectId: "p1_title", runs: [{ content: "{{cli" }, { content: "ent_name}} — Quarterly review\n" }] },
            { objectId: "p1_subtitle", runs: [{ content: "Prepared by {{owner}}\n" }] },
          ],
        },
        {
          objectId: "p2",
          shapes: [
            { objectId: "p2_cell", runs: [{ content: "Revenue in {{quarter}}: {{revenue}}\n" }], inTable: true },
            { objectId: "p2_body", runs: [{ content: "Next steps for {{client_name}}\n" }] },
          ],
        },
      ]);
      if (!a.files.has(id))
        a.files.set(id, {
          id,
          name: "Quarterly review template",
          mimeType: MIME.deck,
          parents: [a.root],
          createdTime: NOW,
          modifiedTime: NOW,
          trashed: false,
          byApp: false,
        });
    }
    const accountOf = (name: string) => {
      if (!accounts.has(name)) accounts.set(name, seed(name));
      return accounts.get(name)!;
    };

    /**
     * The request's grant, refused as Google refuses it: no token → 401; none of `scopes` → 403; the account
     * throttled (operation routes) → 429. Else the account and its granted scopes.
     */
    function grant(
      req: StandInRequest,
      service: string,
      method: string,
      scopes: string[],
      limited = true,
    ): { reply: Reply } | { a: Account; account: string; scope: string } {
      const t = google.bearer(req);
      if (!t) return { reply: unauthenticated() };
      if (!hasScope(t.scope, ...scopes)) return { reply: insufficientScopes(service, method) };
      const throttled = limited ? google.throttled(t.account, service) : null;
      if (throttled) return { reply: throttled };
      return { a: accountOf(t.account), account: t.account, scope: t.scope };
    }

    // ---- tokeninfo ----

    function tokeninfo(req: StandInRequest): Reply {
      const t = google.bearer({ ...req, headers: { authorization: `Bearer ${req.query.get("access_token") ?? ""}` } });
      if (!t) return { status: 400, json: { error: "invalid_token", error_description: "Invalid Value" } };
      const sub = `1${google.digits(`sub:${t.account}`, 20)}`;
      return {
        json: {
          azp: "test-google-client",
          aud: "test-google-client",
          sub,
          scope: t.scope,
          exp: String(Math.floor(Date.now() / 1000) + 3599),
          expires_in: "3599",
          ...(hasScope(t.scope, "email", "https://www.googleapis.com/auth/userinfo.email") && {
            email: `${t.account}@example.com`,
            email_verified: "true",
          }),
          access_type: "offline",
        },
      };
    }

    // ---- Sheets ----

    const SHEETS = "sheets.googleapis.com";
    const SHEETS_READ = [SCOPE.spreadsheets, SCOPE.spreadsheetsReadonly, SCOPE.drive, SCOPE.driveReadonly];
    const SHEETS_WRITE = [SCOPE.spreadsheets, SCOPE.drive];
    const notFound = () => apiError(404, "NOT_FOUND", "Requested entity was not found.");
    const badRange = (range: string) => apiError(400, "INVALID_ARGUMENT", `Unable to parse range: ${range}`);

    function spreadsheet(a: Account, id: string): Sheet[] | null {
      if (!WELL_FORMED.test(id) || id.startsWith("missing")) return null;
      sheetFile(a, id);
      return a.sheets.get(id)!;
    }

    function sheetsGet(req: StandInRequest): Reply {
      const g = grant(req, SHEETS, "google.apps.sheets.v4.SpreadsheetsService.GetSpreadsheet", SHEETS_READ);
      if ("reply" in g) return g.reply;
      const id = req.params.id;
      const sheets = spreadsheet(g.a, id);
      if (!sheets) return notFound();
      return {
        json: {
          spreadsheetId: id,
          properties: { title: g.a.files.get(id)?.name ?? "Leads", locale: "en_US", timeZone: "Europe/Berlin" },
          sheets: sheets.map((s, index) => ({
            properties: {
              sheetId: s.sheetId,
              title: s.title,
              index,
              sheetType: "GRID",
              gridProperties: { rowCount: s.rowCount, columnCount: s.columnCount },
            },
          })),
          spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${id}/edit`,
        },
      };
    }

    function valuesGet(req: StandInRequest): Reply {
      const g = grant(req, SHEETS, "google.apps.sheets.v4.SpreadsheetsService.GetValues", SHEETS_READ);
      if ("reply" in g) return g.reply;
      const sheets = spreadsheet(g.a, req.params.id);
      if (!sheets) return notFound();
      const p = parseRange(sheets, req.params.range);
      if (!p) return badRange(req.params.range);
      const render = req.query.get("valueRenderOption") ?? "FORMATTED_VALUE";
      const r2 = Math.min(p.r2 ?? p.sheet.rowCount - 1, p.sheet.rowCount - 1);
      const c2 = Math.min(p.c2 ?? p.sheet.columnCount - 1, p.sheet.columnCount - 1);
      const values = p.sheet.rows.slice(p.r1, r2 + 1).map((row) => {
        const cells = row
          .slice(p.c1, c2 + 1)
          .map((v) => (render === "FORMATTED_VALUE" ? formatted(v ?? null) : (v ?? "")));
        while (cells.length && (cells[cells.length - 1] === "" || cells[cells.length - 1] === null)) cells.pop();
        return cells;
      });
      while (values.length && !values[values.length - 1].length) values.pop();
      return {
        json: {
          range: a1(p.sheet, p.r1, p.c1, r2, c2),
          majorDimension: "ROWS",
          ...(values.length && { values }),
        },
      };
    }

    /** The rows of a write body, or Google's refusal of them. */
    function bodyRows(req: StandInRequest): Cell[][] | Reply {
      const option = req.query.get("valueInputOption");
      if (!option) return apiError(400, "INVALID_ARGUMENT", "'valueInputOption' is required but not specified");
      if (!["RAW", "USER_ENTERED"].includes(option))
        return apiError(
          400,
          "INVALID_ARGUMENT",
          `Invalid value at 'value_input_option' (type.googleapis.com/google.apps.sheets.v4.ValueInputOption), "${option}"`,
        );
      const values = (req.json ?? {}).values;
      if (!Array.isArray(values) || !values.every(Array.isArray))
        return apiError(
          400,
          "INVALID_ARGUMENT",
          "Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue)",
        );
      return (values as Cell[][]).map((row) => row.map((v) => (option === "USER_ENTERED" ? userEntered(v) : v)));
    }

    function write(sheet: Sheet, r: number, c: number, rows: Cell[][]) {
      rows.forEach((row, i) => {
        const target = (sheet.rows[r + i] ??= []);
        row.forEach((v, j) => (target[c + j] = v));
        for (let k = 0; k < target.length; k++) target[k] ??= null;
      });
      for (let k = 0; k < sheet.rows.length; k++) sheet.rows[k] ??= [];
      sheet.rowCount = Math.max(sheet.rowCount, sheet.rows.length);
      sheet.columnCount = Math.max(sheet.columnCount, c + Math.max(...rows.map((x) => x.length)));
    }
    const updates = (id: string, s: Sheet, r: number, c: number, rows: Cell[][]) => {
      const width = Math.max(...rows.map((x) => x.length), 1);
      return {
        spreadsheetId: id,
        updatedRange: a1(s, r, c, r + rows.length - 1, c + width - 1),
        updatedRows: rows.length,
        updatedColumns: width,
        updatedCells: rows.reduce((n, x) => n + x.length, 0),
      };
    };

    function valuesAppend(req: StandInRequest): Reply {
      const g = grant(req, SHEETS, "google.apps.sheets.v4.SpreadsheetsService.AppendValues", SHEETS_WRITE);
      if ("reply" in g) return g.reply;
      const id = req.params.id;
      const sheets = spreadsheet(g.a, id);
      if (!sheets) return notFound();
      const p = parseRange(sheets, req.params.range);
      if (!p) return badRange(req.params.range);
      const rows = bodyRows(req);
      if (!Array.isArray(rows)) return rows;
      const insert = req.query.get("insertDataOption") ?? "OVERWRITE";
      const hasData = (row: Cell[] | undefined) =>
        !!row && row.slice(p.c1, p.c2 === null ? undefined : p.c2 + 1).some((v) => v !== null && v !== "");
      let last = -1;
      for (let r = p.r1; r < p.sheet.rows.length; r++) if (hasData(p.sheet.rows[r])) last = r;
      const width = Math.max(...p.sheet.rows.slice(p.r1, last + 1).map((x) => x.length), 1);
      const tableRange = last >= p.r1 ? a1(p.sheet, p.r1, p.c1, last, Math.max(p.c1, width - 1)) : undefined;
      const at = Math.max(last + 1, p.r1);
      if (insert === "INSERT_ROWS") p.sheet.rows.splice(at, 0, ...rows.map(() => [] as Cell[]));
      write(p.sheet, at, p.c1, rows);
      return {
        json: { spreadsheetId: id, ...(tableRange && { tableRange }), updates: updates(id, p.sheet, at, p.c1, rows) },
      };
    }

    function valuesUpdate(req: StandInRequest): Reply {
      const g = grant(req, SHEETS, "google.apps.sheets.v4.SpreadsheetsService.UpdateValues", SHEETS_WRITE);
      if ("reply" in g) return g.reply;
      const id = req.params.id;
      const sheets = spreadsheet(g.a, id);
      if (!sheets) return notFound();
      const p = parseRange(sheets, req.params.range);
      if (!p) return badRange(req.params.range);
      const rows = bodyRows(req);
      if (!Array.isArray(rows)) return rows;
      const bodyRange = (req.json ?? {}).range;
      if (typeof bodyRange === "string" && bodyRange !== req.params.range)
        return apiError(
          400,
          "INVALID_ARGUMENT",
          `Invalid data[0]: Requested writing within range [${req.params.range}], but tried writing within range [${bodyRange}].`,
        );
      const single = p.r2 === p.r1 && p.c2 === p.c1 && !req.params.range.includes(":");
      if (!single && p.r2 !== null && rows.length > p.r2 - p.r1 + 1)
        return apiError(
          400,
          "INVALID_ARGUMENT",
          `Requested writing within range [${req.params.range}], but tried writing to row [${p.r1 + rows.length}]`,
        );
      const widest = Math.max(...rows.map((x) => x.length), 0);
      if (!single && p.c2 !== null && widest > p.c2 - p.c1 + 1)
        return apiError(
          400,
          "INVALID_ARGUMENT",
          `Requested writing within range [${req.params.range}], but tried writing to column [${colLetters(p.c1 + widest - 1)}]`,
        );
      write(p.sheet, p.r1, p.c1, rows);
      return { json: updates(id, p.sheet, p.r1, p.c1, rows) };
    }

    // ---- Drive ----

    const DRIVE = "drive.googleapis.com";
    const DRIVE_READ = [
      SCOPE.drive,
      SCOPE.driveReadonly,
      SCOPE.driveFile,
      "https://www.googleapis.com/auth/drive.metadata.readonly",
    ];
    const DRIVE_WRITE = [SCOPE.drive, SCOPE.driveFile];
    const driveError = (code: number, reason: string, message: string, location?: string) => ({
      status: code,
      json: {
        error: {
          code,
          message,
          errors: [{ message, domain: "global", reason, ...(location && { locationType: "parameter", location }) }],
        },
      },
    });
    const fileNotFound = (id: string) => driveError(404, "notFound", `File not found: ${id}.`, "fileId");
    /** What the grant can see: every file with drive / drive.readonly, only the app's own with drive.file alone. */
    const readable = (scope: string, f: DriveFile) => hasScope(scope, SCOPE.drive, SCOPE.driveReadonly) || f.byApp;
    const fileJson = (a: Account, f: DriveFile) => ({
      kind: "drive#file",
      id: f.id,
      name: f.name,
      mimeType: f.mimeType,
      ...(f.description && { description: f.description }),
      parents: f.parents,
      webViewLink:
        f.mimeType === MIME.folder
          ? `https://drive.google.com/drive/folders/${f.id}`
          : f.mimeType === MIME.doc
            ? `https://docs.google.com/document/d/${f.id}/edit?usp=drivesdk`
            : f.mimeType === MIME.sheet
              ? `https://docs.google.com/spreadsheets/d/${f.id}/edit?usp=drivesdk`
              : f.mimeType === MIME.deck
                ? `https://docs.google.com/presentation/d/${f.id}/edit?usp=drivesdk`
                : `https://drive.google.com/file/d/${f.id}/view?usp=drivesdk`,
      createdTime: f.createdTime,
      modifiedTime: f.modifiedTime,
      ...(f.size && { size: f.size }),
      trashed: f.trashed,
      owners: [{ kind: "drive#user", displayName: a.email.split("@")[0], emailAddress: a.email }],
    });
    const deckText = (slides: Slide[]) =>
      slides.map((s) => s.shapes.map((sh) => sh.runs.map((r) => r.content).join("")).join("")).join("\n");
    const exportText = (a: Account, f: DriveFile, mime: string): string | null => {
      if (f.mimeType === MIME.doc && ["text/plain", "text/markdown", "text/html"].includes(mime))
        return mime === "text/html"
          ? `<html><body>${(f.content ?? "").replace(/\n/g, "<br>")}</body></html>`
          : (f.content ?? "");
      if (f.mimeType === MIME.sheet && mime === "text/csv")
        return (a.sheets.get(f.id)?.[0]?.rows ?? [])
          .map((r) => r.map((v) => formatted(v ?? null)).join(","))
          .join("\r\n");
      if (f.mimeType === MIME.deck && mime === "text/plain") return deckText(a.decks.get(f.id) ?? []);
      return null;
    };

    function about(req: StandInRequest): Reply {
      const g = grant(req, DRIVE, "google.apps.drive.v3.DriveAbout.Get", [...DRIVE_READ, SCOPE.presentations], false);
      if ("reply" in g) return g.reply;
      return {
        json: {
          user: {
            kind: "drive#user",
            displayName: g.account,
            me: true,
            permissionId: google.digits(`perm:${g.account}`, 20),
            emailAddress: `${g.account}@example.com`,
          },
        },
      };
    }

    function filesList(req: StandInRequest): Reply {
      const g = grant(req, DRIVE, "google.apps.drive.v3.DriveFiles.List", DRIVE_READ);
      if ("reply" in g) return g.reply;
      const q = req.query.get("q") ?? "";
      const textOf = (f: DriveFile) =>
        f.content ?? (f.mimeType === MIME.deck ? deckText(g.a.decks.get(f.id) ?? []) : "");
      const filter = q ? driveFilter(q, textOf) : () => true;
      if (!filter) return driveError(400, "invalid", "Invalid Value", "q");
      const orderBy = req.query.get("orderBy");
      if (orderBy && /fullText\s+contains/i.test(q))
        return driveError(
          400,
          "invalid",
          "Sorting is not supported for queries with fullText terms. Results are always in descending relevance order.",
          "orderBy",
        );
      const pageSize = Number(req.query.get("pageSize") ?? 100);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
        return driveError(
          400,
          "invalid",
          `Invalid value '${req.query.get("pageSize")}'. Values must be within the range: [1, 1000]`,
          "pageSize",
        );
      const [key = "modifiedTime", dir] = (orderBy ?? "modifiedTime desc").split(",")[0].trim().split(/\s+/);
      const files = [...g.a.files.values()]
        .filter((f) => readable(g.scope, f) && filter(f))
        .sort((x, y) => {
          const a = String((x as Record<string, unknown>)[key === "name_natural" ? "name" : key] ?? "");
          const b = String((y as Record<string, unknown>)[key === "name_natural" ? "name" : key] ?? "");
          return (dir === "desc" ? -1 : 1) * a.localeCompare(b) || x.name.localeCompare(y.name);
        });
      const offset = Number(Buffer.from(req.query.get("pageToken") ?? "MA", "base64url").toString() || 0);
      const page = files.slice(offset, offset + pageSize);
      return {
        json: {
          kind: "drive#fileList",
          incompleteSearch: false,
          files: page.map((f) => fileJson(g.a, f)),
          ...(offset + pageSize < files.length && {
            nextPageToken: Buffer.from(String(offset + pageSize)).toString("base64url"),
          }),
        },
      };
    }

    function filesGet(req: StandInRequest): Reply {
      const g = grant(req, DRIVE, "google.apps.drive.v3.DriveFiles.Get", DRIVE_READ);
      if ("reply" in g) return g.reply;
      const f = g.a.files.get(req.params.id);
      if (!f || !readable(g.scope, f)) return fileNotFound(req.params.id);
      return { json: fileJson(g.a, f) };
    }

    let created = 0;
    const newId = (account: string) => workspaceId(account, `new/${++created}/${Date.now()}`);

    /** The parents of a new file: each must be a folder the grant can see. */
    function parentsOf(g: { a: Account; scope: string }, parents: unknown, fallback: string[]): string[] | Reply {
      if (parents === undefined) return fallback;
      if (!Array.isArray(parents) || parents.length !== 1 || typeof parents[0] !== "string")
        return driveError(400, "invalid", "A file must have exactly one parent.", "parents");
      const parent = g.a.files.get(parents[0]);
      if (
        (parents[0] !== g.a.root && !parent) ||
        (parent && (!readable(g.scope, parent) || parent.mimeType !== MIME.folder))
      )
        return driveError(404, "notFound", `File not found: ${parents[0]}.`, "parentId");
      return [parents[0]];
    }

    function filesCreate(req: StandInRequest): Reply {
      const g = grant(req, DRIVE, "google.apps.drive.v3.DriveFiles.Create", DRIVE_WRITE);
      if ("reply" in g) return g.reply;
      const b = (req.json ?? {}) as Json;
      const parents = parentsOf(g, b.parents, [g.a.root]);
      if (!Array.isArray(parents)) return parents;
      const now = new Date().toISOString();
      const f: DriveFile = {
        id: newId(g.account),
        name: typeof b.name === "string" && b.name ? b.name : "Untitled",
        mimeType: typeof b.mimeType === "string" ? b.mimeType : "application/octet-stream",
        parents,
        ...(typeof b.description === "string" && { description: b.description }),
        createdTime: now,
        modifiedTime: now,
        trashed: false,
        byApp: true,
      };
      g.a.files.set(f.id, f);
      return { json: fileJson(g.a, f) };
    }

    function filesCopy(req: StandInRequest): Reply {
      const g = grant(req, DRIVE, "google.apps.drive.v3.DriveFiles.Copy", DRIVE_WRITE);
      if ("reply" in g) return g.reply;
      const source = g.a.files.get(req.params.id);
      if (!source || !readable(g.scope, source)) return fileNotFound(req.params.id);
      if (source.mimeType === MIME.folder)
        return driveError(403, "cannotCopyFile", "This file cannot be copied by the user.");
      const b = (req.json ?? {}) as Json;
      const parents = parentsOf(g, b.parents, source.parents);
      if (!Array.isArray(parents)) return parents;
      const now = new Date().toISOString();
      const copy: DriveFile = {
        ...source,
        id: newId(g.account),
        name: typeof b.name === "string" && b.name ? b.name : `Copy of ${source.name}`,
        parents,
        createdTime: now,
        modifiedTime: now,
        byApp: true,
      };
      g.a.files.set(copy.id, copy);
      const sheets = g.a.sheets.get(source.id);
      if (sheets) g.a.sheets.set(copy.id, structuredClone(sheets));
      const deck = g.a.decks.get(source.id);
      if (deck) g.a.decks.set(copy.id, structuredClone(deck));
      return { json: fileJson(g.a, copy) };
    }

    function filesExport(req: StandInRequest): Reply {
      const g = grant(req, DRIVE, "google.apps.drive.v3.DriveFiles.Export", [
        SCOPE.drive,
        SCOPE.driveReadonly,
        SCOPE.driveFile,
      ]);
      if ("reply" in g) return g.reply;
      const f = g.a.files.get(req.params.id);
      if (!f || !readable(g.scope, f)) return fileNotFound(req.params.id);
      const mime = req.query.get("mimeType");
      if (!mime) return driveError(400, "required", "Required parameter: mimeType", "mimeType");
      if (![MIME.doc, MIME.sheet, MIME.deck].includes(f.mimeType))
        return driveError(403, "fileNotExportable", "Export only supports Docs Editors files.");
      const out = exportText(g.a, f, mime);
      if (out === null) return driveError(400, "badRequest", "The requested conversion is not supported.", "convertTo");
      return { text: out, headers: { "content-type": `${mime}; charset=utf-8` } };
    }

    // ---- Slides ----

    const SLIDES = "slides.googleapis.com";
    function deckOf(g: { a: Account; scope: string }, id: string, write: boolean): Slide[] | Reply {
      if (!WELL_FORMED.test(id) || id.startsWith("missing")) return notFound();
      deckFile(g.a, id);
      const f = g.a.files.get(id)!;
      const all = write
        ? hasScope(g.scope, SCOPE.presentations, SCOPE.drive)
        : hasScope(g.scope, SCOPE.presentations, SCOPE.presentationsReadonly, SCOPE.drive, SCOPE.driveReadonly);
      if (!all && !f.byApp) return apiError(403, "PERMISSION_DENIED", "The caller does not have permission");
      return g.a.decks.get(id)!;
    }
    const textJson = (runs: Run[]) => ({
      textElements: runs.flatMap((r, i) => [
        ...(i === 0 ? [{ endIndex: 1, paragraphMarker: { style: {} } }] : []),
        { textRun: { content: r.content, style: {} } },
      ]),
    });

    function presentationsGet(req: StandInRequest): Reply {
      const g = grant(req, SLIDES, "google.apps.slides.v1.PresentationsService.GetPresentation", [
        SCOPE.presentations,
        SCOPE.presentationsReadonly,
        SCOPE.drive,
        SCOPE.driveReadonly,
        SCOPE.driveFile,
      ]);
      if ("reply" in g) return g.reply;
      const deck = deckOf(g, req.params.id, false);
      if (!Array.isArray(deck)) return deck;
      return {
        json: {
          presentationId: req.params.id,
          title: g.a.files.get(req.params.id)!.name,
          locale: "en",
          revisionId: createHash("sha256").update(JSON.stringify(deck)).digest("base64url").slice(0, 22),
          pageSize: { width: { magnitude: 9144000, unit: "EMU" }, height: { magnitude: 5143500, unit: "EMU" } },
          slides: deck.map((s) => ({
            objectId: s.objectId,
            pageElements: s.shapes.map((sh) =>
              sh.inTable
                ? {
                    objectId: sh.objectId,
                    table: {
                      rows: 1,
                      columns: 1,
                      tableRows: [{ tableCells: [{ location: {}, text: textJson(sh.runs) }] }],
                    },
                  }
                : { objectId: sh.objectId, shape: { shapeType: "TEXT_BOX", text: textJson(sh.runs) } },
            ),
          })),
        },
      };
    }

    function presentationsBatchUpdate(req: StandInRequest): Reply {
      const g = grant(req, SLIDES, "google.apps.slides.v1.PresentationsService.BatchUpdatePresentation", [
        SCOPE.presentations,
        SCOPE.drive,
        SCOPE.driveFile,
      ]);
      if ("reply" in g) return g.reply;
      const deck = deckOf(g, req.params.id, true);
      if (!Array.isArray(deck)) return deck;
      const requests = (req.json ?? {}).requests;
      if (!Array.isArray(requests) || !requests.length)
        return apiError(400, "INVALID_ARGUMENT", "Invalid requests: must contain at least one request.");
      const work = structuredClone(deck);
      const replies: Json[] = [];
      for (const [i, r] of requests.entries()) {
        const kind = Object.keys(r ?? {})[0];
        if (kind !== "replaceAllText")
          return apiError(
            400,
            "INVALID_ARGUMENT",
            `Invalid JSON payload received. Unknown name "${kind}" at 'requests[${i}]': the stand-in knows replaceAllText only.`,
          );
        const { containsText, replaceText } = r.replaceAllText ?? {};
        const find = containsText?.text;
        if (typeof find !== "string" || !find)
          return apiError(
            400,
            "INVALID_ARGUMENT",
            `Invalid requests[${i}].replaceAllText: containsText.text must not be empty.`,
          );
        const flags = containsText.matchCase === false ? "gi" : "g";
        const pattern = new RegExp(find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
        let changed = 0;
        for (const s of work)
          for (const sh of s.shapes) {
            const whole = sh.runs.map((x) => x.content).join("");
            const n = whole.match(pattern)?.length ?? 0;
            if (n) {
              changed += n;
              sh.runs = [{ content: whole.replace(pattern, () => String(replaceText ?? "")) }];
            }
          }
        replies.push({ replaceAllText: changed ? { occurrencesChanged: changed } : {} });
      }
      g.a.decks.set(req.params.id, work);
      return {
        json: {
          presentationId: req.params.id,
          replies,
          writeControl: {
            requiredRevisionId: createHash("sha256").update(JSON.stringify(work)).digest("base64url").slice(0, 22),
          },
        },
      };
    }

    // ---- BigQuery ----

    const BQ = "bigquery.googleapis.com";
    const BQ_READ = [SCOPE.bigquery, SCOPE.bigqueryReadonly, SCOPE.cloud, SCOPE.cloudReadonly];
    const bqError = (code: number, status: string, reason: string, message: string) => ({
      status: code,
      json: { error: { code, message, errors: [{ message, domain: "global", reason }], status } },
    });
    const bqNotFound = (what: string) => bqError(404, "NOT_FOUND", "notFound", `Not found: ${what}`);

    function project(g: { a: Account }, p: string): Reply | null {
      return p === g.a.project ? null : bqNotFound(`Project ${p}`);
    }
    function tableOf(g: { a: Account }, p: string, d: string, t: string): BqTable | Reply {
      const refused = project(g, p);
      if (refused) return refused;
      const dataset = g.a.datasets.get(d);
      if (!dataset) return bqNotFound(`Dataset ${p}:${d}`);
      return dataset.get(t) ?? bqNotFound(`Table ${p}:${d}.${t}`);
    }

    function projectsList(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.ProjectService.ListProjects", BQ_READ);
      if ("reply" in g) return g.reply;
      return {
        json: {
          kind: "bigquery#projectList",
          projects: [
            {
              kind: "bigquery#project",
              id: g.a.project,
              numericId: google.digits(`num:${g.a.project}`, 12),
              projectReference: { projectId: g.a.project },
              friendlyName: `${g.account} analytics`,
            },
          ],
          totalItems: 1,
        },
      };
    }

    function datasetsList(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.DatasetService.ListDatasets", BQ_READ);
      if ("reply" in g) return g.reply;
      const refused = project(g, req.params.project);
      if (refused) return refused;
      return {
        json: {
          kind: "bigquery#datasetList",
          datasets: [...g.a.datasets.keys()].map((d) => ({
            kind: "bigquery#dataset",
            id: `${g.a.project}:${d}`,
            datasetReference: { datasetId: d, projectId: g.a.project },
            location: "US",
          })),
        },
      };
    }

    function tablesList(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.TableService.ListTables", BQ_READ);
      if ("reply" in g) return g.reply;
      const refused = project(g, req.params.project);
      if (refused) return refused;
      const dataset = g.a.datasets.get(req.params.dataset);
      if (!dataset) return bqNotFound(`Dataset ${req.params.project}:${req.params.dataset}`);
      return {
        json: {
          kind: "bigquery#tableList",
          ...(dataset.size && {
            tables: [...dataset.entries()].map(([t, table]) => ({
              kind: "bigquery#table",
              id: `${g.a.project}:${req.params.dataset}.${t}`,
              tableReference: { projectId: g.a.project, datasetId: req.params.dataset, tableId: t },
              type: "TABLE",
              creationTime: String(table.created),
            })),
          }),
          totalItems: dataset.size,
        },
      };
    }

    function tablesGet(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.TableService.GetTable", BQ_READ);
      if ("reply" in g) return g.reply;
      const { project: p, dataset: d, table: t } = req.params;
      const table = tableOf(g, p, d, t);
      if (!("fields" in table)) return table;
      return {
        json: {
          kind: "bigquery#table",
          id: `${p}:${d}.${t}`,
          tableReference: { projectId: p, datasetId: d, tableId: t },
          schema: { fields: table.fields },
          numRows: String(table.rows.length),
          type: "TABLE",
          location: "US",
          creationTime: String(table.created),
        },
      };
    }

    /** A JSON value as the column's type, or the reason BigQuery gives for refusing it. */
    function bqValue(field: BqField, v: unknown): { value: Cell } | { error: string } {
      if (v === null || v === undefined) return { value: null };
      switch (field.type) {
        case "INTEGER":
          return (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && /^-?\d+$/.test(v))
            ? { value: Number(v) }
            : { error: "Cannot convert value to integer." };
        case "FLOAT":
          return typeof v === "number" || (typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)))
            ? { value: Number(v) }
            : { error: "Cannot convert value to floating point." };
        case "BOOLEAN":
          return typeof v === "boolean" || v === "true" || v === "false"
            ? { value: v === true || v === "true" }
            : { error: "Cannot convert value to boolean." };
        case "DATE":
          return typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v)
            ? { value: v }
            : { error: `Invalid date: '${String(v)}'` };
        case "TIMESTAMP": {
          const seconds = typeof v === "number" ? v : Date.parse(String(v)) / 1000;
          return Number.isFinite(seconds) ? { value: seconds } : { error: "Cannot convert value to timestamp." };
        }
        default:
          return typeof v === "object"
            ? { error: "This field: " + field.name + " is not a record." }
            : { value: String(v) };
      }
    }

    function insertAll(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.TableDataService.InsertAll", [
        SCOPE.bigquery,
        SCOPE.bigqueryInsert,
        SCOPE.cloud,
      ]);
      if ("reply" in g) return g.reply;
      const { project: p, dataset: d, table: t } = req.params;
      const table = tableOf(g, p, d, t);
      if (!("fields" in table)) return table;
      const b = (req.json ?? {}) as Json;
      if (!Array.isArray(b.rows) || !b.rows.length)
        return bqError(400, "INVALID_ARGUMENT", "invalid", "No rows present in the request.");
      const accepted: { insertId?: string; row: Record<string, Cell> }[] = [];
      const insertErrors: Json[] = [];
      b.rows.forEach((r: Json, index: number) => {
        const json =
          r && typeof r.json === "object" && r.json !== null && !Array.isArray(r.json) ? (r.json as Json) : null;
        const errors: Json[] = [];
        const row: Record<string, Cell> = {};
        if (!json) errors.push({ reason: "invalid", location: "", debugInfo: "", message: "Missing row json." });
        for (const [key, v] of Object.entries(json ?? {})) {
          const field = table.fields.find((f) => f.name.toLowerCase() === key.toLowerCase());
          if (!field) {
            if (!b.ignoreUnknownValues)
              errors.push({ reason: "invalid", location: key, debugInfo: "", message: `no such field: ${key}.` });
            continue;
          }
          const value = bqValue(field, v);
          if ("error" in value) errors.push({ reason: "invalid", location: key, debugInfo: "", message: value.error });
          else row[field.name] = value.value;
        }
        if (errors.length) insertErrors.push({ index, errors });
        else accepted.push({ insertId: typeof r.insertId === "string" ? r.insertId : undefined, row });
      });
      if (insertErrors.length && !b.skipInvalidRows) {
        const stopped = b.rows
          .map((_: unknown, index: number) => index)
          .filter((index: number) => !insertErrors.some((e) => e.index === index))
          .map((index: number) => ({
            index,
            errors: [{ reason: "stopped", location: "", debugInfo: "", message: "" }],
          }));
        return {
          json: {
            kind: "bigquery#tableDataInsertAllResponse",
            insertErrors: [...insertErrors, ...stopped].sort((x, y) => x.index - y.index),
          },
        };
      }
      for (const { insertId, row } of accepted) {
        if (insertId && table.insertIds.has(insertId)) continue;
        if (insertId) table.insertIds.add(insertId);
        table.rows.push(row);
      }
      return {
        json: { kind: "bigquery#tableDataInsertAllResponse", ...(insertErrors.length && { insertErrors }) },
      };
    }

    /** The answer of a (small) query: the subset in the header. */
    function evaluate(g: { a: Account }, projectId: string, sql: string, maxResults: number): Answer | Reply {
      const s = sql
        .replace(/\/\*[\s\S]*?\*\//g, " ")
        .replace(/--[^\n]*/g, " ")
        .trim()
        .replace(/;$/, "");
      const m =
        /^SELECT\s+([\s\S]+?)(?:\s+FROM\s+`?([\w.-]+?)`?(?:\s+WHERE\s+(\w+)\s*=\s*'([^']*)')?)?(?:\s+LIMIT\s+(\d+))?$/i.exec(
          s,
        );
      if (!m)
        return bqError(
          400,
          "INVALID_ARGUMENT",
          "invalidQuery",
          `Syntax error: the stand-in cannot run this query: ${s.slice(0, 100)}`,
        );
      const [, select, from, whereCol, whereVal, limit] = m;
      let fields: BqField[];
      let rows: Record<string, Cell>[];
      let scanned = 1;
      if (!from) {
        fields = [];
        const row: Record<string, Cell> = {};
        for (const item of select.split(",")) {
          const im = /^\s*('([^']*)'|-?\d+(?:\.\d+)?|TRUE|FALSE)\s+AS\s+(\w+)\s*$/i.exec(item);
          if (!im) return bqError(400, "INVALID_ARGUMENT", "invalidQuery", `Syntax error: Unexpected "${item.trim()}"`);
          const [, lit, str, alias] = im;
          const type =
            str !== undefined
              ? "STRING"
              : /^(TRUE|FALSE)$/i.test(lit)
                ? "BOOLEAN"
                : lit.includes(".")
                  ? "FLOAT"
                  : "INTEGER";
          fields.push({ name: alias, type, mode: "NULLABLE" });
          row[alias] = str !== undefined ? str : type === "BOOLEAN" ? lit.toUpperCase() === "TRUE" : Number(lit);
        }
        rows = [row];
      } else {
        const parts = from.split(".");
        const [p, d, t] = parts.length === 3 ? parts : [projectId, ...parts];
        if (!d || !t)
          return bqError(
            400,
            "INVALID_ARGUMENT",
            "invalid",
            `Table "${from}" must be qualified with a dataset (e.g. dataset.table).`,
          );
        const table = tableOf(g, p, d, t);
        if (!("fields" in table)) return table;
        scanned = table.rows.length;
        rows = table.rows.filter((r) => !whereCol || String(r[whereCol]) === whereVal);
        if (/^\s*COUNT\(\*\)\s+AS\s+(\w+)\s*$/i.test(select)) {
          const alias = /AS\s+(\w+)/i.exec(select)![1];
          fields = [{ name: alias, type: "INTEGER", mode: "NULLABLE" }];
          rows = [{ [alias]: rows.length }];
        } else if (select.trim() === "*") fields = table.fields;
        else {
          fields = [];
          for (const name of select.split(",").map((x) => x.trim())) {
            const f = table.fields.find((x) => x.name === name);
            if (!f) return bqError(400, "INVALID_ARGUMENT", "invalidQuery", `Unrecognized name: ${name} at [1:8]`);
            fields.push(f);
          }
        }
      }
      if (limit) rows = rows.slice(0, Number(limit));
      const cell = (f: BqField, v: Cell) =>
        v === null || v === undefined ? null : f.type === "TIMESTAMP" ? Number(v).toExponential() : String(v);
      return {
        fields,
        totalRows: rows.length,
        bytes: scanned * 1_000_000,
        rows: rows.slice(0, maxResults).map((r) => ({ f: fields.map((f) => ({ v: cell(f, r[f.name] ?? null) })) })),
        more: rows.length > maxResults,
      };
    }

    function jobsQuery(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.JobService.Query", [SCOPE.bigquery, SCOPE.cloud]);
      if ("reply" in g) return g.reply;
      const p = req.params.project;
      const refused = project(g, p);
      if (refused) return refused;
      const b = (req.json ?? {}) as Json;
      if (typeof b.query !== "string" || !b.query.trim())
        return bqError(400, "INVALID_ARGUMENT", "invalid", "Required parameter is missing: query");
      if (b.useLegacySql !== false)
        return bqError(
          400,
          "INVALID_ARGUMENT",
          "invalidQuery",
          "The stand-in runs GoogleSQL only: set useLegacySql to false (legacy SQL is the API's default).",
        );
      const answer = evaluate(g, p, b.query, Number(b.maxResults ?? 100000));
      if (!("fields" in answer)) return answer;
      const billed = Math.max(answer.bytes, 10_485_760);
      if (b.maximumBytesBilled !== undefined && Number(b.maximumBytesBilled) < billed)
        return bqError(
          400,
          "INVALID_ARGUMENT",
          "bytesBilledLimitExceeded",
          `Query exceeded limit for bytes billed: ${Number(b.maximumBytesBilled)}. ${billed} or higher required.`,
        );
      const schema = { fields: answer.fields };
      if (b.dryRun === true)
        return {
          json: {
            kind: "bigquery#queryResponse",
            schema,
            jobReference: { projectId: p, location: "US" },
            totalBytesProcessed: String(answer.bytes),
            jobComplete: true,
            cacheHit: false,
          },
        };
      const jobId = `job_${createHash("sha256").update(`${p}/${b.query}/${Date.now()}/${Math.random()}`).digest("base64url").slice(0, 26)}`;
      const jobReference = { projectId: p, jobId, location: "US" };
      const done = {
        kind: "bigquery#queryResponse",
        schema,
        jobReference,
        totalRows: String(answer.totalRows),
        ...(answer.rows.length && { rows: answer.rows }),
        ...(answer.more && { pageToken: "BFJ2" }),
        totalBytesProcessed: String(answer.bytes),
        jobComplete: true,
        cacheHit: false,
      };
      if (/\/\*\s*slow\s*\*\//i.test(b.query)) {
        g.a.jobs.set(jobId, { projectId: p, jobId, answer: { ...done, kind: "bigquery#getQueryResultsResponse" } });
        return { json: { kind: "bigquery#queryResponse", jobReference, jobComplete: false } };
      }
      if (/\/\*\s*chunked\s*\*\//i.test(b.query)) return chunked(JSON.stringify(done));
      return { json: done, headers: { "content-length": String(Buffer.byteLength(JSON.stringify(done))) } };
    }

    /** A JSON body sent in 16 KiB chunks, with no content-length (Transfer-Encoding: chunked). */
    function chunked(body: string): Reply {
      async function* chunks() {
        for (let at = 0; at < body.length; at += 16_384) yield body.slice(at, at + 16_384);
      }
      return {
        stream: chunks(),
        headers: { "content-type": "application/json; charset=UTF-8", "cache-control": "private" },
      };
    }

    /** jobs.insert, for dry-run query jobs: the Job resource with the statement type BigQuery read. */
    function jobsInsert(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.JobService.InsertJob", [SCOPE.bigquery, SCOPE.cloud]);
      if ("reply" in g) return g.reply;
      const p = req.params.project;
      const refused = project(g, p);
      if (refused) return refused;
      const b = (req.json ?? {}) as Json;
      const configuration = (b.configuration ?? {}) as Json;
      const q = (configuration.query ?? {}) as Json;
      if (typeof q.query !== "string" || !q.query.trim())
        return bqError(400, "INVALID_ARGUMENT", "invalid", "Required parameter is missing: configuration.query.query");
      if (configuration.dryRun !== true)
        return bqError(
          400,
          "INVALID_ARGUMENT",
          "invalid",
          "The stand-in's jobs.insert runs dry-run query jobs only: set configuration.dryRun to true.",
        );
      if (q.useLegacySql !== false)
        return bqError(
          400,
          "INVALID_ARGUMENT",
          "invalidQuery",
          "The stand-in runs GoogleSQL only: set useLegacySql to false (legacy SQL is the API's default).",
        );
      const statementType = bigqueryStatementType(q.query);
      if (!statementType)
        return bqError(
          400,
          "INVALID_ARGUMENT",
          "invalidQuery",
          `Syntax error: the stand-in cannot read this query: ${q.query.slice(0, 100)}`,
        );
      let schema: Json | undefined;
      let bytes = 0;
      if (statementType === "SELECT" && !/stand-in statementType/.test(q.query)) {
        const answer = evaluate(g, p, q.query, 0);
        if (!("fields" in answer)) return answer;
        schema = { fields: answer.fields };
        bytes = answer.bytes;
      }
      const location = typeof b.jobReference?.location === "string" ? b.jobReference.location : "US";
      return {
        json: {
          kind: "bigquery#job",
          etag: createHash("sha256").update(q.query).digest("base64").slice(0, 24),
          selfLink: `https://bigquery.googleapis.com/bigquery/v2/projects/${p}/jobs?location=${location}`,
          user_email: g.a.email,
          configuration: { query: { query: q.query, useLegacySql: false }, dryRun: true, jobType: "QUERY" },
          jobReference: { projectId: p, location },
          statistics: {
            creationTime: String(Date.now()),
            totalBytesProcessed: String(bytes),
            query: {
              totalBytesProcessed: String(bytes),
              totalBytesProcessedAccuracy: "PRECISE",
              cacheHit: false,
              statementType,
              ...(schema && { schema }),
            },
          },
          status: { state: "DONE" },
          principal_subject: `user:${g.a.email}`,
        },
      };
    }

    function getQueryResults(req: StandInRequest): Reply {
      const g = grant(req, BQ, "google.cloud.bigquery.v2.JobService.GetQueryResults", [
        SCOPE.bigquery,
        SCOPE.cloud,
        SCOPE.cloudReadonly,
        SCOPE.bigqueryReadonly,
      ]);
      if ("reply" in g) return g.reply;
      const refused = project(g, req.params.project);
      if (refused) return refused;
      const job = g.a.jobs.get(req.params.job);
      if (!job) return bqNotFound(`Job ${req.params.project}:US.${req.params.job}`);
      return { json: job.answer };
    }

    return {
      "GET /tokeninfo": tokeninfo,
      "GET /v4/spreadsheets/{id}": sheetsGet,
      "GET /v4/spreadsheets/{id}/values/{range}": valuesGet,
      "POST /v4/spreadsheets/{id}/values/{range}:append": valuesAppend,
      "PUT /v4/spreadsheets/{id}/values/{range}": valuesUpdate,
      "GET /drive/v3/about": about,
      "GET /drive/v3/files": filesList,
      "POST /drive/v3/files": filesCreate,
      "GET /drive/v3/files/{id}": filesGet,
      "POST /drive/v3/files/{id}/copy": filesCopy,
      "GET /drive/v3/files/{id}/export": filesExport,
      "GET /v1/presentations/{id}": presentationsGet,
      "POST /v1/presentations/{id}:batchUpdate": presentationsBatchUpdate,
      "GET /bigquery/v2/projects": projectsList,
      "GET /bigquery/v2/projects/{project}/datasets": datasetsList,
      "GET /bigquery/v2/projects/{project}/datasets/{dataset}/tables": tablesList,
      "GET /bigquery/v2/projects/{project}/datasets/{dataset}/tables/{table}": tablesGet,
      "POST /bigquery/v2/projects/{project}/datasets/{dataset}/tables/{table}/insertAll": insertAll,
      "POST /bigquery/v2/projects/{project}/queries": jobsQuery,
      "POST /bigquery/v2/projects/{project}/jobs": jobsInsert,
      "GET /bigquery/v2/projects/{project}/queries/{job}": getQueryResults,
    };
  },
};
