import {
  credentialTable,
  oauthClientSteps,
  oauthSection,
  refreshTokenSteps,
  rotationAndErrors,
} from "@/lib/platforms/google/workspace-common";

// Plain-markdown page served at /docs/connections/bigquery.md.

const SCOPE = "https://www.googleapis.com/auth/bigquery";

export const bigqueryDocs = `# BigQuery

Lists BigQuery projects, datasets and tables, runs read-only GoogleSQL queries and streams rows into tables, through the BigQuery API (v2).

${credentialTable([SCOPE], "a Google account with BigQuery access to the projects")}

## Where each credential comes from

${oauthClientSteps("BigQuery API")}

${refreshTokenSteps([SCOPE])}

The Google account needs, in each project (IAM & Admin → IAM): **BigQuery Job User** (\`roles/bigquery.jobUser\`, to run queries billed to the project), **BigQuery Data Viewer** on the datasets it reads, and **BigQuery Data Editor** on the tables it inserts rows into.

## Scopes

- \`${SCOPE}\`: view and manage BigQuery data.

Why this one and not a narrower one: \`https://www.googleapis.com/auth/bigquery.readonly\` lists and reads tables but does not allow \`jobs.insert\` (which Patchbay's dry run uses, below) or \`tabledata.insertAll\`; \`https://www.googleapis.com/auth/bigquery.insertdata\` only streams rows. \`bigquery\` allows \`jobs.insert\`, \`jobs.query\` and \`tabledata.insertAll\`, and is narrower than \`cloud-platform\`. Because the scope itself would let a query change data, Patchbay runs only queries that BigQuery itself reads as one \`SELECT\` statement: every query is first sent as a dry run (\`jobs.insert\` with \`dryRun: true\`, which runs nothing and costs nothing), and unless BigQuery reports the statement type \`SELECT\` it is refused and never run. \`INSERT\`, \`UPDATE\`, \`DELETE\`, \`MERGE\`, DDL and scripts (several statements) are refused; the plain cases already before BigQuery is called.

## Queries and cost

\`bigquery.query\` dry-runs the query (above), then runs \`jobs.query\` with \`useLegacySql: false\` and the **maximum_bytes_billed** the caller must set (10 MB to 1 TB): BigQuery fails a query that would bill more, and bills nothing for it. \`dry_run: true\` stops after the dry run: it validates the query and reports the bytes it would process, for free. When the query is not done within \`timeout_ms\` (at most 8 s per call), Patchbay asks \`jobs.getQueryResults\` up to three more times; after that the answer has \`job_complete: false\` and the job ID.

## Inserting rows

\`bigquery.rows.insert\` streams at most 500 rows per call into an existing table (\`tabledata.insertAll\`). Each row carries an \`insertId\` (given, or derived from the table, the row's position and its content), so BigQuery drops a duplicate sent within about a minute. By default the call is all or nothing: if one row is invalid, none is inserted and the error names the rows.

Patchbay checks the credentials by listing the projects the token can use (\`GET https://bigquery.googleapis.com/bigquery/v2/projects\`).

${rotationAndErrors("bigquery")}
- \`Query exceeded limit for bytes billed: …\`: the query would bill more than maximum_bytes_billed; raise it, or narrow the query (select fewer columns, filter on the partition column).
- \`Access Denied: Project …: User does not have bigquery.jobs.create permission …\`: grant the account BigQuery Job User in that project.

${oauthSection([SCOPE])}
`;
