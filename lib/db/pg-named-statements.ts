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

// A transaction's BEGIN was a round trip of its own: Prisma's adapter sends it when the
// transaction opens and waits for its answer before the callback sends anything. On a connection
// checked out with `beginLazily` (Prisma's transactions, lib/db/client.ts), BEGIN is answered
// here and sent with the transaction's first statement, both written at once in node-pg's
// pipeline mode: the server runs them in order, so that statement is inside the transaction as
// before, with one round trip saved. A transaction that ends before sending anything (COMMIT or
// ROLLBACK with BEGIN still held) sends nothing. BEGIN cannot fail on a live connection (inside a
// transaction it only warns); on a lost one the statement written with it fails too.

type Lazy = Client & {
  pipeline: boolean;
  connection: { stream: { cork?: () => void; uncork?: () => void } };
  beginLazily?: boolean;
  beginHeld?: boolean;
  _queryQueue: unknown[];
  _sentQueryQueue: unknown[];
  _activeQuery: unknown;
};

/** The statement text of a query's arguments, when it is a plain one without parameters. */
function bareText([config, values]: QueryArgs): string | undefined {
  if (Array.isArray(values) && values.length) return undefined;
  if (typeof config === "string") return config.trim().toUpperCase();
  if (!config || typeof config !== "object" || "submit" in config) return undefined;
  const q = config as QueryConfig;
  return q.values?.length || typeof q.text !== "string" ? undefined : q.text.trim().toUpperCase();
}

/** Answers a query without sending it, as node-pg would have: by its callback, else a promise. */
function answered(args: QueryArgs, command: string) {
  const result = { command, rowCount: null, oid: 0, rows: [], fields: [] };
  const callback = args.find((a) => typeof a === "function") as ((e: null, r: typeof result) => void) | undefined;
  if (!callback) return Promise.resolve(result);
  process.nextTick(() => callback(null, result));
  return undefined;
}

/** Sends the held BEGIN and this query written at once; the pipeline ends once both are answered. */
function withHeldBegin(client: Lazy, args: QueryArgs) {
  const ownPipeline = !client.pipeline;
  client.pipeline = true;
  const end = () => {
    if (ownPipeline) leavePipeline(client);
  };
  return inOneWrite(client, () => {
    // Its answer only confirms the transaction; a lost connection fails the statement below too.
    (query.call(client, "BEGIN") as Promise<unknown>).catch(() => {});
    return sendAndEnd(client, args, end);
  });
}

/**
 * Ends pipeline mode once no statement written in it waits for its answer. node-pg in plain mode
 * reads answers only for the statement it sent last: one still waiting behind it would never be
 * answered, and whoever awaits it would wait for good. Until then the connection stays in
 * pipeline mode, which answers statements in order whichever mode sent them.
 */
function leavePipeline(client: Lazy) {
  if (!client._sentQueryQueue.length) {
    client.pipeline = false;
    return;
  }
  (client as unknown as NodeJS.EventEmitter).once("drain", () => leavePipeline(client));
}

/**
 * Runs `send` with the connection's socket corked: statements it writes in pipeline mode (each
 * submitted at once) leave in one write, so the server reads them together and is woken once.
 */
function inOneWrite<T>(client: Lazy, send: () => T): T {
  const stream = client.connection.stream;
  stream.cork?.();
  try {
    return send();
  } finally {
    stream.uncork?.();
  }
}

/** Sends the query; `end` runs once it is answered, before the caller's own reactions. */
function sendAndEnd(client: Lazy, args: QueryArgs, end: () => void) {
  const sent = named(...args);
  const callbackAt = sent.findIndex((a) => typeof a === "function");
  if (callbackAt >= 0) {
    const callback = sent[callbackAt] as (...r: unknown[]) => void;
    sent[callbackAt] = (...r: unknown[]) => {
      end();
      callback(...r);
    };
    return query.apply(client, sent);
  }
  const answer = query.apply(client, sent) as Promise<unknown>;
  // Registered before the caller's own reactions: the pipeline ends before its next statement.
  answer.then(end, end);
  return answer;
}

/**
 * Statements written to `client` at once, each with its own Sync (node-pg's pipeline mode), and
 * their rows in order: the server runs them in order, and an error fails that statement alone (in
 * an open transaction the rest then fail too, and its COMMIT rolls it back). The first failure is
 * thrown once all are answered; `connectionLost` says whether the connection is unusable after it
 * (the server did not answer with an error of its own).
 */
export async function pipelinedOn(
  client: Client,
  statements: { sql: string; values: readonly unknown[] }[],
): Promise<unknown[][]> {
  const c = client as Lazy;
  const ownPipeline = !c.pipeline;
  c.pipeline = true;
  try {
    const settled = await Promise.allSettled(
      inOneWrite(c, () =>
        statements.map((st) => c.query<Record<string, unknown>>({ text: st.sql, values: [...st.values] })),
      ),
    );
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<{ rows: unknown[] }>).value.rows);
  } finally {
    if (ownPipeline) leavePipeline(c);
  }
}

/** Whether an error thrown by a statement left its connection unusable (no answer from the server). */
export const connectionLost = (e: unknown) => !(e as { code?: string }).code;

/** A connection going back to the pool forgets its transaction's held BEGIN and its lazy mode. */
export function checkedIn(client: Client) {
  const c = client as Lazy;
  c.beginLazily = false;
  c.beginHeld = false;
}

/** Marks a connection just checked out: its BEGIN waits for the transaction's first statement. */
export function beginLazily(client: Client) {
  (client as Lazy).beginLazily = true;
}

/**
 * pg's Client, with the statements that carry parameters named (above), and a transaction's BEGIN
 * sent with its first statement on connections checked out to begin lazily. A statement without
 * parameters keeps the simple protocol: it may hold several statements (a migration, `BEGIN`),
 * which a named statement cannot.
 */
export class NamedStatementsClient extends Client {}
(NamedStatementsClient.prototype as unknown as { query: (...args: QueryArgs) => unknown }).query = function (
  this: Lazy,
  ...args: QueryArgs
) {
  if (this.beginLazily) {
    const text = bareText(args);
    if (this.beginHeld) {
      this.beginHeld = false;
      // Nothing was sent in the transaction: it ends without a round trip.
      if (text === "COMMIT" || text === "ROLLBACK") return answered(args, text);
      return withHeldBegin(this, args);
    }
    if (text === "BEGIN" && !this.pipeline) {
      this.beginHeld = true;
      return answered(args, "BEGIN");
    }
  }
  return query.apply(this, named(...args));
};
