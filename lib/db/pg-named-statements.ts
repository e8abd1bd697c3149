import "server-only";
import { Client, type QueryConfig } from "pg";

// Every statement the product sends to PostgreSQL with parameters (Prisma's, and the compiled
// reads and writes of lib/db/read.ts and lib/db/write.ts) went as an unnamed statement: the
// server parsed, analysed and planned its text again on each call. bench:workflows measured the
// database's CPU at about a third of a workflow run's, for three dozen single-row statements.
// Here a text used twice gets a name: each connection parses it once, and each later use only
// binds and executes it (PostgreSQL keeps a named statement for the session, and after five
// runs plans it once when a generic plan costs no more than a custom one).

/** Texts that get a name; past it, new texts stay unnamed (a burst of one-off texts cannot grow it). */
const MAX_NAMED = 400;
/** Texts seen once, waiting for a second use; cleared when full. */
const MAX_SEEN = 4_000;
/**
 * A statement with more parameters than this is a batch (the webhook dispatcher's results, a
 * claim's list of ids): its text changes with its row count, so naming each count would spend
 * the names above on texts used a few times each, and its parse is small beside its rows.
 */
const MAX_PARAMETERS = 50;

const names = new Map<string, string>();
const seen = new Set<string>();

/** Off behind a pooler that hands a session's statements to other sessions (README: Deploying). */
const enabled = process.env.DATABASE_PREPARED_STATEMENTS !== "off";

/** The name for `text`, from its second use on (one-off texts, such as a migration's, stay unnamed). */
function nameFor(text: string): string | undefined {
  if (!enabled) return undefined;
  const name = names.get(text);
  if (name !== undefined || names.size >= MAX_NAMED) return name;
  if (!seen.has(text)) {
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(text);
    return undefined;
  }
  seen.delete(text);
  const given = `pb_${names.size}`;
  names.set(text, given);
  return given;
}

const namable = (parameters: number) => parameters > 0 && parameters <= MAX_PARAMETERS;

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with its client as `this` below
const query = Client.prototype.query as (this: Client, ...args: QueryArgs) => unknown;

/** `args` with a name added when their statement carries parameters and has a text named above. */
function named(...[config, values, callback]: QueryArgs): QueryArgs {
  if (typeof config === "string") {
    const name = Array.isArray(values) && namable(values.length) ? nameFor(config) : undefined;
    return name ? [{ name, text: config, values }, callback] : [config, values, callback];
  }
  // A config object (not a Query or a cursor already built: those carry `submit`).
  if (!config || typeof config !== "object" || "submit" in config) return [config, values, callback];
  const q = config as QueryConfig;
  const parameters = q.values ?? (Array.isArray(values) ? (values as unknown[]) : undefined);
  const name = q.name === undefined && namable(parameters?.length ?? 0) ? nameFor(q.text) : undefined;
  if (!name) return [config, values, callback];
  return [{ ...q, name, values: parameters }, typeof values === "function" ? values : callback];
}

/**
 * pg's Client, with the statements that carry parameters named (above). A statement without
 * parameters keeps the simple protocol: it may hold several statements (a migration, `BEGIN`),
 * which a named statement cannot.
 */
export class NamedStatementsClient extends Client {}
(NamedStatementsClient.prototype as unknown as { query: (...args: QueryArgs) => unknown }).query = function (
  this: Client,
  ...args: QueryArgs
) {
  return query.apply(this, named(...args));
};
