import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

// The table e2e/api/platforms.spec.ts runs: one entry per connection type, written next to its
// stand-in's facts. The suite does the same checks for every entry (the connect flow through an
// auth link, create from credentials, each operation's request and result, each write through an
// approval, the rate-limit answer), so a new platform is one entry here, not a new spec.

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

/** One request a stand-in received (its journal, e2e/support/stand-ins/stand-in-server.ts). */
export type Recorded = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  json: Json | null;
  text: string;
  /** The HTTP status the stand-in answered. */
  status: number | null;
  /** The account the request authenticated as, when the stand-in names it (startStandInServer's `accountOf`). */
  account: string | null;
};

/** What a case's functions get: the connection the suite made and what `prepare` learned. */
export type RunContext = {
  /** The MCP client of a server over this one connection (writes allowed). */
  client: Client;
  connectionId: string;
  /** The provider account the connection was made for (the stand-in's `account`, or the manual credentials' account). */
  account: string;
  /** Random hex, unique to this test. */
  nonce: string;
  /** What `prepare` returned. */
  p: Json;
};

type ReadCase = {
  /** The operation id, e.g. "google_sheets.values.get". */
  op: string;
  input(ctx: RunContext): Json;
  /** The structured result of one run. */
  check(result: Json, ctx: RunContext): void | Promise<void>;
  /**
   * The provider requests of this run (the journal filtered to `mine`, oldest first): method,
   * path, query, body, headers and API version exactly as the provider documents them.
   */
  requests(requests: Recorded[], ctx: RunContext): void;
};

type WriteCase = ReadCase & {
  /** The summary a person approves (the write's `summarize`, with the `before` read's names). */
  summary(ctx: RunContext, connectionName: string): string;
  /** An input the provider refuses (an unknown object …) and words of its reason the tool error must carry. */
  refusal(ctx: RunContext): { input: Json; says: string[] };
};

export type PlatformCase = {
  /** The connection type, e.g. "google_sheets". */
  type: string;
  /** Its display name in the type list. */
  name: string;
  /** The credential fields of manual creation, or null for an OAuth-only type. */
  credentialFields: string[] | null;

  /** How the type connects through an auth link, when it does. */
  oauth?: {
    /** The OAUTH_<PROVIDER>_… configuration key, e.g. "GOOGLE". */
    provider: string;
    /** The provider's authorize path, e.g. "/o/oauth2/v2/auth". */
    authorizePath: string;
    /** The authorize request carries code_challenge with S256 (and the token call the verifier). */
    pkce: boolean;
    /** Every scope the authorize URL must ask for (its own parameter, split as the provider does); null when set on the app. */
    scopes: string[] | null;
    /** The display name the connection gets for the stand-in account `account`. */
    accountName(account: string): string;
    /**
     * The access token expires and is refreshed: the suite expires it, sees a refresh, then
     * gives it a revoked refresh token (`bad_revoked`) and sees the connection need re-authorization.
     */
    refresh: boolean;
    /**
     * Without `refresh`: the access token still expires, and the connection records when (Meta's
     * 60-day user tokens, which have no refresh grant: the user connects again).
     */
    expires?: boolean;
  };

  /** Creation from credentials the caller holds, when the type allows it. */
  manual?: {
    /** Credentials the stand-in accepts, for account `account`. */
    good(account: string): Record<string, string>;
    /** Credentials it refuses, and words of the provider's reason the 400's detail must carry. */
    refused(account: string): { credentials: Record<string, string>; says: string[] };
  };

  /** What the operations need to know first (IDs the provider assigned), learned as an agent would. */
  prepare?(ctx: Omit<RunContext, "p">): Promise<Json>;
  /**
   * Reads the provider takes as POST (GraphQL queries, search endpoints): not a change while a
   * write awaits approval. Absent: every request but a GET is a change.
   */
  readsByPost?(r: Recorded): boolean;
  /**
   * The journal entries of this test's calls (the journal is shared by parallel tests). Default:
   * those whose `account` is the test's account (the stand-in's `accountOf` names it).
   */
  mine?(r: Recorded, ctx: RunContext): boolean;

  /** At least two reads. */
  reads: ReadCase[];
  /** At least one write, where the platform's API allows one. */
  writes: WriteCase[];

  /**
   * The provider's rate-limit answer, for an operation run on a connection of the account
   * `throttled-once-<nonce>` (the stand-in answers the first call with its rate limit) and of
   * `throttled-<nonce>` (every call): `retried` = the first succeeds after the retry the docs ask
   * for; the second must be reported with these words.
   */
  rateLimit: {
    op: string;
    input(ctx: RunContext): Json;
    says: string[];
    /**
     * false: the provider's docs ask for no immediate retry (Graph's throttling, HTTP 400/403 with
     * an error code, lifts after minutes): `throttled-once` is reported too, and the next run succeeds.
     */
    retried?: false;
  };

  /** Plain requests a person would type, and the operation find_operations must rank first for each. */
  searches: { ask: string; first: string }[];
};
