import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { googleAccessToken, googleType, listOf, stringOr, type ApiCheck } from "@/lib/platforms/google/google-provider";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import { PROVIDER, count, objectOr, text, workspaceApiCall } from "@/lib/platforms/google/workspace-common";
import { assertReadOnlyQuery } from "@/lib/platforms/google/bigquery/sql-check";
import { dryRunSelect } from "@/lib/platforms/google/bigquery/dry-run-select";
import { bigqueryDocs } from "@/lib/platforms/google/bigquery/bigquery-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject, numeric } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { OperationInputError, type OperationContext } from "@/lib/platforms/kit/operation-types";
import { ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";

// BigQuery (BigQuery API v2): projects, datasets and tables, read-only GoogleSQL queries
// (dry-run with jobs.insert, which must report one SELECT statement, then jobs.query, polled with
// jobs.getQueryResults) with a cap on the bytes billed, and streaming rows into a table
// (tabledata.insertAll). One scope, bigquery: it covers jobs.insert and insertAll, which
// bigquery.readonly does not; since it also lets a query change data, the dry run decides what runs.

const TYPE = "bigquery";
const BIGQUERY_API = "https://bigquery.googleapis.com/bigquery/v2";
const BIGQUERY_SCOPE = "https://www.googleapis.com/auth/bigquery";
/** The highest maximum_bytes_billed a caller may set: 1 TB (about 6.25 USD at on-demand prices). */
const MAX_BYTES_BILLED = 1_000_000_000_000;
/** jobs.query / getQueryResults wait at most this long per call, under the provider call timeout (10 s). */
const MAX_WAIT_MS = 8000;
/** getQueryResults calls made while the job runs, after jobs.query. */
const POLLS = 3;

/**
 * The projects the account can use (projects.list): proves the token works with the BigQuery API.
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/projects/list
 */
const checkBigQuery: ApiCheck = async (type, accessToken) => {
  const what = "the BigQuery projects.list call";
  const body = await workspaceApiCall(type, `${BIGQUERY_API}/projects?maxResults=1`, accessToken, what);
  const [first] = listOf(body, "projects", what);
  const id = stringOr(objectOr(first?.projectReference).projectId) ?? stringOr(first?.id);
  return { accountId: id, accountName: stringOr(first?.friendlyName) ?? id };
};

const bigqueryType = googleType({
  type: TYPE,
  name: "BigQuery",
  logo: monogramLogo("#4285F4", "BQ"),
  scopes: [
    {
      name: BIGQUERY_SCOPE,
      allows: "View and manage your data in Google BigQuery and see the email address for your Google Account",
      changes: true,
    },
  ],
  credentialFields: ["client_id", "client_secret", "refresh_token"],
  docs: bigqueryDocs,
  hosts: ["bigquery.googleapis.com"],
  check: checkBigQuery,
});

const projectId = z
  .string()
  .trim()
  .regex(
    /^([a-z][a-z0-9.-]{0,62}:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/,
    "must be a Google Cloud project ID, e.g. my-project-123",
  )
  .describe("The Google Cloud project ID, e.g. my-project-123 (bigquery.projects.list lists them).");
const datasetId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{1,1024}$/, "must be a BigQuery dataset ID (letters, digits and underscores)")
  .describe("The dataset ID, e.g. analytics_123.");
const tableId = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd} ]{1,1024}$/u, "must be a BigQuery table ID")
  .describe("The table ID, e.g. events.");
const pageToken = z
  .string()
  .max(2000)
  .optional()
  .describe("next_page_token of the previous answer, for the next page.");
const pageSize = (fallback: number) =>
  z.number().int().min(1).max(1000).default(fallback).describe(`How many to return (1-1000, default ${fallback}).`);

const seg = encodeURIComponent;
const token = (ctx: OperationContext) => googleAccessToken(ctx.connection.type, ctx.credentials);
const get = async (ctx: OperationContext, path: string, what: string) =>
  workspaceApiCall(ctx.connection.type, `${BIGQUERY_API}${path}`, await token(ctx), what);
const query = (params: Record<string, string | undefined>) => {
  const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return defined.length ? `?${new URLSearchParams(defined)}` : "";
};

const listProjects = defineRead({
  id: "bigquery.projects.list",
  title: "List BigQuery projects",
  consent: "See your BigQuery projects, datasets and tables",
  description:
    "Lists the Google Cloud projects this BigQuery connection can use (BigQuery API projects.list), with their project IDs and names: the project_id the other BigQuery operations need.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: { max_results: pageSize(100), page_token: pageToken },
  output: {
    projects: z
      .array(
        z.object({
          project_id: z.string().nullable().describe("Project ID"),
          name: z.string().nullable().describe("Project name"),
          numeric_id: z.number().nullable().describe("Project number"),
        }),
      )
      .describe("Projects"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const what = "the BigQuery projects.list call";
    // https://cloud.google.com/bigquery/docs/reference/rest/v2/projects/list
    const body = await get(
      ctx,
      `/projects${query({ maxResults: String(args.max_results), pageToken: args.page_token })}`,
      what,
    );
    return {
      projects: listOf(body, "projects", what).map((p) => ({
        project_id: text(objectOr(p.projectReference).projectId) ?? text(p.id),
        name: text(p.friendlyName),
        numeric_id: count(p.numericId),
      })),
      next_page_token: text(body.nextPageToken),
    };
  },
});

const listDatasets = defineRead({
  id: "bigquery.datasets.list",
  title: "List the datasets of a BigQuery project",
  consent: "See your BigQuery projects, datasets and tables",
  description:
    "Lists the datasets of one BigQuery project (BigQuery API datasets.list): each dataset's ID, name and location. Use bigquery.tables.list next to see a dataset's tables.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { project_id: "my-project-123" },
  input: { project_id: projectId, max_results: pageSize(100), page_token: pageToken },
  output: {
    project_id: z.string().describe("Project ID"),
    datasets: z
      .array(
        z.object({
          dataset_id: z.string().nullable().describe("Dataset ID"),
          name: z.string().nullable().describe("Dataset name"),
          location: z.string().nullable().describe("Location, e.g. US or EU"),
        }),
      )
      .describe("Datasets"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const what = "the BigQuery datasets.list call";
    // https://cloud.google.com/bigquery/docs/reference/rest/v2/datasets/list
    const body = await get(
      ctx,
      `/projects/${seg(args.project_id)}/datasets${query({ maxResults: String(args.max_results), pageToken: args.page_token })}`,
      what,
    );
    return {
      project_id: args.project_id,
      datasets: listOf(body, "datasets", what).map((d) => ({
        dataset_id: text(objectOr(d.datasetReference).datasetId),
        name: text(d.friendlyName),
        location: text(d.location),
      })),
      next_page_token: text(body.nextPageToken),
    };
  },
});

const listTables = defineRead({
  id: "bigquery.tables.list",
  title: "List the tables of a BigQuery dataset",
  consent: "See your BigQuery projects, datasets and tables",
  description:
    "Lists the tables and views of one BigQuery dataset (BigQuery API tables.list): each table's ID, type (TABLE, VIEW, MATERIALIZED_VIEW, EXTERNAL …), name and creation time, and how many there are.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { project_id: "my-project-123", dataset_id: "analytics_123" },
  input: { project_id: projectId, dataset_id: datasetId, max_results: pageSize(100), page_token: pageToken },
  output: {
    project_id: z.string().describe("Project ID"),
    dataset_id: z.string().describe("Dataset ID"),
    total_tables: z.number().nullable().describe("Tables in the dataset"),
    tables: z
      .array(
        z.object({
          table_id: z.string().nullable().describe("Table ID"),
          type: z.string().nullable().describe("Table type, e.g. TABLE or VIEW"),
          name: z.string().nullable().describe("Table name"),
          created_time: z.string().nullable().describe("Created at"),
        }),
      )
      .describe("Tables and views"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const what = "the BigQuery tables.list call";
    // https://cloud.google.com/bigquery/docs/reference/rest/v2/tables/list
    const body = await get(
      ctx,
      `/projects/${seg(args.project_id)}/datasets/${seg(args.dataset_id)}/tables${query({ maxResults: String(args.max_results), pageToken: args.page_token })}`,
      what,
    );
    return {
      project_id: args.project_id,
      dataset_id: args.dataset_id,
      total_tables: count(body.totalItems),
      tables: listOf(body, "tables", what).map((t) => {
        const created = Number(t.creationTime);
        return {
          table_id: text(objectOr(t.tableReference).tableId),
          type: text(t.type),
          name: text(t.friendlyName),
          created_time: Number.isFinite(created) && t.creationTime ? new Date(created).toISOString() : null,
        };
      }),
      next_page_token: text(body.nextPageToken),
    };
  },
});

type Field = { name: string; type: string; mode: string; fields: Field[] };
const fieldsOf = (schema: unknown): Field[] =>
  listOf(objectOr(schema), "fields", "the query's schema").map((f) => ({
    name: String(f.name ?? ""),
    type: String(f.type ?? "STRING").toUpperCase(),
    mode: String(f.mode ?? "NULLABLE").toUpperCase(),
    fields: fieldsOf(f),
  }));

/** One cell of a query answer ({v}) as JSON: numbers, booleans, timestamps, records and arrays decoded. */
function cellValue(field: Field, v: unknown, repeatedItem = false): unknown {
  if (v === null || v === undefined) return null;
  if (field.mode === "REPEATED" && !repeatedItem)
    return (Array.isArray(v) ? v : []).map((item) => cellValue(field, objectOr(item).v, true));
  switch (field.type) {
    case "RECORD":
    case "STRUCT":
      return rowOf(field.fields, v);
    case "INTEGER":
    case "INT64":
    case "FLOAT":
    case "FLOAT64":
    case "NUMERIC":
    case "BIGNUMERIC":
      return numeric(v);
    case "BOOLEAN":
    case "BOOL":
      return v === "true" || v === true;
    case "TIMESTAMP": {
      const seconds = Number(v);
      return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : v;
    }
    default:
      return v;
  }
}
function rowOf(fields: Field[], row: unknown): Record<string, unknown> {
  const cells = Array.isArray(objectOr(row).f) ? (objectOr(row).f as unknown[]) : [];
  return Object.fromEntries(fields.map((f, i) => [f.name, cellValue(f, objectOr(cells[i]).v)]));
}

const runQuery = defineRead({
  id: "bigquery.query",
  title: "Run a read-only SQL query in BigQuery",
  consent: "Run read-only queries on your BigQuery data",
  description:
    "Runs one read-only GoogleSQL query (SELECT or WITH) in BigQuery and returns its rows as objects keyed by column name, with the schema, total row count and bytes processed (BigQuery API jobs.query, then jobs.getQueryResults while the job runs). " +
    "Use it to query, select, count, sum or aggregate data in a table, e.g. SELECT country, COUNT(*) AS n FROM `my-project.analytics.events` GROUP BY country ORDER BY n DESC. " +
    "maximum_bytes_billed is required: BigQuery fails the query instead of billing more (on-demand queries cost by bytes scanned; dry_run true reports the bytes a query would scan without running it). " +
    "INSERT, UPDATE, DELETE, MERGE, DDL and multi-statement scripts are refused: BigQuery dry-runs every query first, and only one it reads as a SELECT statement is run. When the job is not done in time, job_complete is false and the job_id is returned.",
  types: [TYPE],
  credits: 3,
  cacheTtlSeconds: 60,
  example: {
    project_id: "my-project-123",
    query:
      "SELECT country, COUNT(*) AS sessions FROM `my-project-123.analytics.events` GROUP BY country ORDER BY sessions DESC",
    maximum_bytes_billed: 1_000_000_000,
  },
  input: {
    project_id: projectId.describe("The project that runs (and is billed for) the query, e.g. my-project-123."),
    query: z
      .string()
      .trim()
      .min(1)
      .max(100_000)
      .describe("One GoogleSQL SELECT or WITH statement; name tables as `project.dataset.table`."),
    maximum_bytes_billed: z
      .number()
      .int()
      .min(10_485_760)
      .max(MAX_BYTES_BILLED)
      .describe(
        "The most bytes the query may bill (10 MB, BigQuery's minimum charge, to 1 TB). BigQuery fails a query that would bill more, and bills nothing for it. 1 GB is 1000000000.",
      ),
    dry_run: z
      .boolean()
      .default(false)
      .describe("Only validate the query and report the bytes it would process, without running it (free)."),
    timeout_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MS)
      .default(MAX_WAIT_MS)
      .describe(
        `How long each call waits for the query to finish, in milliseconds (0-${MAX_WAIT_MS}, default ${MAX_WAIT_MS}).`,
      ),
    max_results: pageSize(100).describe("How many rows to return at most (1-1000, default 100)."),
    location: z
      .string()
      .regex(/^[A-Za-z0-9-]{2,40}$/, "must be a BigQuery location such as US, EU or europe-west1")
      .optional()
      .describe("The location of the datasets (US, EU, europe-west1 …); default: where BigQuery finds them."),
  },
  output: {
    project_id: z.string().describe("Project ID"),
    dry_run: z.boolean().describe("Only checked, not run"),
    job_complete: z.boolean().describe("Query finished"),
    job_id: z.string().nullable().describe("Query job ID"),
    location: z.string().nullable().describe("Location, e.g. US or EU"),
    total_bytes_processed: z.number().nullable().describe("Bytes processed"),
    cache_hit: z.boolean().describe("Answered from BigQuery's cache"),
    total_rows: z.number().nullable().describe("Total result rows (may be more than the rows returned)"),
    schema: z
      .array(
        z.object({
          name: z.string().describe("Column"),
          type: z.string().describe("Column type, e.g. STRING or INTEGER"),
          mode: z.string().describe("Mode, e.g. NULLABLE or REPEATED"),
        }),
      )
      .describe("Result columns"),
    rows: z
      .array(z.record(z.string(), z.unknown()))
      .describe("Result rows: one object per row, keyed by column name (the columns depend on the query)"),
    more_rows: z.boolean().describe("More rows than were returned"),
  },
  async run(ctx, args) {
    // The text check refuses the plain cases with a sentence; BigQuery's dry run decides.
    assertReadOnlyQuery(args.query);
    const accessToken = await token(ctx);
    const base = `${BIGQUERY_API}/projects/${seg(args.project_id)}`;
    const checked = await dryRunSelect(ctx.connection.type, accessToken, base, {
      projectId: args.project_id,
      query: args.query,
      maximumBytesBilled: args.maximum_bytes_billed,
      location: args.location,
    });
    if (args.dry_run)
      return {
        project_id: args.project_id,
        dry_run: true,
        job_complete: true,
        job_id: checked.jobId,
        location: checked.location ?? args.location ?? null,
        total_bytes_processed: count(checked.totalBytesProcessed),
        cache_hit: checked.cacheHit,
        total_rows: null,
        schema: fieldsOf(checked.schema).map((f) => ({ name: f.name, type: f.type, mode: f.mode })),
        rows: [],
        more_rows: false,
      };
    // https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/query
    let body = await workspaceApiCall(
      ctx.connection.type,
      `${base}/queries`,
      accessToken,
      "the BigQuery jobs.query call",
      {
        body: {
          query: args.query,
          useLegacySql: false,
          maximumBytesBilled: String(args.maximum_bytes_billed),
          dryRun: false,
          timeoutMs: args.timeout_ms,
          maxResults: args.max_results,
          ...(args.location && { location: args.location }),
        },
      },
    );
    const job = objectOr(body.jobReference);
    for (let poll = 0; body.jobComplete === false && poll < POLLS; poll++) {
      if (typeof job.jobId !== "string")
        throw new ProviderUnavailable(PROVIDER, "BigQuery answered an unfinished query without its job reference.");
      // https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/getQueryResults
      body = await workspaceApiCall(
        ctx.connection.type,
        `${base}/queries/${seg(job.jobId)}${query({
          location: text(job.location) ?? args.location,
          timeoutMs: String(args.timeout_ms),
          maxResults: String(args.max_results),
        })}`,
        accessToken,
        "the BigQuery jobs.getQueryResults call",
      );
    }
    const fields = fieldsOf(body.schema);
    return {
      project_id: args.project_id,
      dry_run: false,
      job_complete: body.jobComplete !== false,
      job_id: text(job.jobId),
      location: text(job.location) ?? args.location ?? null,
      total_bytes_processed: count(body.totalBytesProcessed),
      cache_hit: body.cacheHit === true,
      total_rows: count(body.totalRows),
      schema: fields.map((f) => ({ name: f.name, type: f.type, mode: f.mode })),
      rows: listOf(body, "rows", "the query's rows").map((r) => rowOf(fields, r)),
      more_rows: typeof body.pageToken === "string" && body.pageToken !== "",
    };
  },
});

const tableTarget = { project_id: projectId, dataset_id: datasetId, table_id: tableId };
const tableName = (a: { project_id: string; dataset_id: string; table_id: string }) =>
  `${a.project_id}.${a.dataset_id}.${a.table_id}`;

const insertRows = defineWrite({
  id: "bigquery.rows.insert",
  additive: true,
  idempotent: false,
  title: "Insert rows into a BigQuery table",
  consent: "Add rows to your BigQuery tables",
  description:
    "Streams rows into an existing BigQuery table (BigQuery API tabledata.insertAll): insert, add, append, load or write records, events or data rows. " +
    'Each row is an object keyed by column name, e.g. {"country": "DE", "sessions": 12}; the table\'s schema decides the types. ' +
    "Every row carries an insertId (given, or derived from the table, its position and its content), so BigQuery drops a row sent again within about a minute. " +
    "By default the request is all or nothing: one invalid row (unknown column, wrong type) inserts none, and the errors name the rows. Returns how many rows were inserted.",
  types: [TYPE],
  credits: 2,
  example: {
    project_id: "my-project-123",
    dataset_id: "analytics_123",
    table_id: "events",
    rows: [{ country: "DE", sessions: 12 }],
  },
  input: {
    ...tableTarget,
    rows: z
      .array(z.record(z.string().min(1).max(300), z.unknown()))
      .min(1)
      .max(500)
      .describe('The rows, 1-500, each an object of column name → value, e.g. [{"country": "DE", "sessions": 12}].'),
    insert_ids: z
      .array(z.string().min(1).max(128))
      .optional()
      .describe(
        "One insertId per row, for de-duplication (default: derived from the table, the row's position and its content).",
      ),
    skip_invalid_rows: z
      .boolean()
      .default(false)
      .describe("Insert the valid rows even when some are invalid (default false: all or nothing)."),
    ignore_unknown_values: z
      .boolean()
      .default(false)
      .describe("Drop values of columns the table does not have instead of refusing the row (default false)."),
  },
  summarize(args, _connection, before) {
    const state = isObject(before) ? before : {};
    const n = args.rows.length;
    const now = typeof state.rows === "number" ? ` (now about ${state.rows.toLocaleString("en-US")} rows)` : "";
    return `Insert ${n} row${n === 1 ? "" : "s"} into BigQuery table ${tableName(args)}${now}`;
  },
  before: async (ctx, args) => {
    // https://cloud.google.com/bigquery/docs/reference/rest/v2/tables/get
    const body = await get(
      ctx,
      `/projects/${seg(args.project_id)}/datasets/${seg(args.dataset_id)}/tables/${seg(args.table_id)}`,
      "the BigQuery tables.get call",
    );
    return {
      table: tableName(args),
      type: text(body.type),
      rows: count(body.numRows),
      columns: fieldsOf(body.schema).map((f) => `${f.name} ${f.type}`),
    };
  },
  output: {
    table: z.string().describe("Table (project.dataset.table)"),
    inserted_rows: z.number().describe("Rows inserted"),
    insert_ids: z.array(z.string()).describe("Insert IDs, one per row sent"),
    errors: z
      .array(
        z.object({
          row: z.number().describe("Row number (0 = first)"),
          errors: z
            .array(
              z.object({
                reason: z.string().nullable().describe("Reason, e.g. invalid"),
                location: z.string().nullable().describe("Column"),
                message: z.string().nullable().describe("Message"),
              }),
            )
            .describe("Why it was refused"),
        }),
      )
      .describe("Rows BigQuery refused (with skip_invalid_rows)"),
  },
  async run(ctx, args) {
    if (args.insert_ids && args.insert_ids.length !== args.rows.length)
      throw new OperationInputError(`insert_ids has ${args.insert_ids.length} IDs for ${args.rows.length} rows.`);
    const insertIds =
      args.insert_ids ??
      args.rows.map((row, i) =>
        createHash("sha256")
          .update(`${tableName(args)}\n${i}\n${JSON.stringify(row)}`)
          .digest("hex")
          .slice(0, 32),
      );
    const what = "the BigQuery tabledata.insertAll call";
    // https://cloud.google.com/bigquery/docs/reference/rest/v2/tabledata/insertAll
    const body = await workspaceApiCall(
      ctx.connection.type,
      `${BIGQUERY_API}/projects/${seg(args.project_id)}/datasets/${seg(args.dataset_id)}/tables/${seg(args.table_id)}/insertAll`,
      await token(ctx),
      what,
      {
        body: {
          kind: "bigquery#tableDataInsertAllRequest",
          skipInvalidRows: args.skip_invalid_rows,
          ignoreUnknownValues: args.ignore_unknown_values,
          rows: args.rows.map((json, i) => ({ insertId: insertIds[i], json })),
        },
      },
    );
    const errors = listOf(body, "insertErrors", what).map((e) => ({
      row: typeof e.index === "number" ? e.index : Number(e.index),
      errors: listOf(e, "errors", what).map((x) => ({
        reason: text(x.reason),
        location: text(x.location),
        message: text(x.message),
      })),
    }));
    // "stopped" marks a valid row left out because another row was invalid.
    const invalid = errors.filter((e) => e.errors.some((x) => x.reason !== "stopped"));
    if (invalid.length && !args.skip_invalid_rows) {
      const first = invalid
        .slice(0, 5)
        .map(
          (e) =>
            `row ${e.row}: ${e.errors.map((x) => `${x.reason ?? "invalid"}${x.location ? ` (${x.location})` : ""}: ${x.message ?? ""}`).join("; ")}`,
        )
        .join(" | ");
      throw new ProviderRejection(
        PROVIDER,
        `BigQuery inserted none of the ${args.rows.length} rows: ${invalid.length} ${invalid.length === 1 ? "is" : "are"} invalid (${first}).`,
      );
    }
    return {
      table: tableName(args),
      inserted_rows: args.rows.length - invalid.length,
      insert_ids: insertIds,
      errors: invalid,
    };
  },
});

export const bigquery: GoogleProduct = {
  types: [bigqueryType],
  operations: [listProjects, listDatasets, listTables, runQuery, insertRows],
};
