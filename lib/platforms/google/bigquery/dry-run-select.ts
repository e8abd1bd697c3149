import "server-only";
import { PROVIDER, objectOr, text, workspaceApiCall } from "@/lib/platforms/google/workspace-common";
import { OperationInputError } from "@/lib/platforms/kit/operation-types";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";

// What keeps bigquery.query read-only: BigQuery's own reading of the text. The scope jobs.query
// needs (bigquery) lets a query run DML, DDL and scripts, and BigQuery has no job setting that
// runs only queries (JobConfigurationQuery has none; a dry run is the one way to ask what a text
// is without running it). So every query is first sent as a dry-run query job (jobs.insert with
// configuration.dryRun: free, nothing runs), and only when BigQuery answers
// statistics.query.statementType "SELECT" is the same text run with jobs.query. jobs.query's own
// dry run does not report the statement type (QueryResponse has no statistics), hence jobs.insert.
// https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/insert
// https://cloud.google.com/bigquery/docs/reference/rest/v2/Job#JobStatistics2 (statementType)

/** What the dry run reported: the figures a dry_run answer shows. */
export type DryRun = {
  location: string | null;
  jobId: string | null;
  totalBytesProcessed: unknown;
  cacheHit: boolean;
  schema: unknown;
};

/** Why a statement other than one SELECT is not run, in the words of BigQuery's statement type. */
function refusal(statementType: string): string {
  if (statementType === "SCRIPT")
    return "bigquery.query runs one read-only query: BigQuery reads this text as a script (several statements, or a procedural one), so nothing was run.";
  return `bigquery.query runs read-only queries: BigQuery reads this statement as ${statementType}, not SELECT, so nothing was run.`;
}

/**
 * Dry-runs `query` in `projectId` and refuses (OperationInputError) unless BigQuery reports one
 * SELECT statement; an answer without a statement type is refused too (ProviderUnavailable).
 */
export async function dryRunSelect(
  type: string,
  accessToken: string,
  projectUrl: string,
  job: { projectId: string; query: string; maximumBytesBilled: number; location?: string },
): Promise<DryRun> {
  const answer = await workspaceApiCall(type, `${projectUrl}/jobs`, accessToken, "the BigQuery jobs.insert dry run", {
    body: {
      jobReference: { projectId: job.projectId, ...(job.location && { location: job.location }) },
      configuration: {
        dryRun: true,
        query: { query: job.query, useLegacySql: false, maximumBytesBilled: String(job.maximumBytesBilled) },
      },
    },
  });
  const statistics = objectOr(answer.statistics);
  const query = objectOr(statistics.query);
  const statementType = text(query.statementType);
  if (!statementType)
    throw new ProviderUnavailable(
      PROVIDER,
      "BigQuery's dry run of the query did not say what kind of statement it is, so it was not run.",
    );
  if (statementType !== "SELECT") throw new OperationInputError(refusal(statementType));
  const reference = objectOr(answer.jobReference);
  return {
    location: text(reference.location),
    jobId: text(reference.jobId),
    totalBytesProcessed: query.totalBytesProcessed ?? statistics.totalBytesProcessed,
    cacheHit: query.cacheHit === true,
    schema: query.schema,
  };
}
