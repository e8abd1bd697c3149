import type { z } from "zod";
import type { FreshCredentials } from "@/lib/platforms/kit/types";

/** A connection an operation may run on: in the caller's scope, visible to the caller. */
export type OperationConnection = {
  id: string;
  type: string;
  name: string | null;
  externalId: string | null;
  isPrivate: boolean;
};

export type OperationContext = {
  connection: OperationConnection;
  /** The connection's credentials, OAuth tokens refreshed when near expiry (lib/connections/fresh-credentials). */
  credentials: FreshCredentials;
};

/**
 * One operation of the catalogue (lib/operations/registry.ts): a read or a write on a provider.
 * The framework (lib/operations/run-operation.ts) checks the connection is in the caller's
 * scope and of one of `types`, validates the input against `input`, checks the team's credits,
 * answers reads from the response cache for `cacheTtlSeconds`, drops a connection's cached
 * reads after a write, and writes the run's operation log and ledger charge. `run` only talks
 * to the provider.
 *
 * `run` returns the JSON result. It throws ProviderRejection (the provider said no: bad token,
 * missing scope, bad request — the reason text is shown) or ProviderUnavailable (could not
 * reach it), both from lib/platforms/kit/types, or OperationInputError for input the provider
 * would never accept.
 */
export type Operation = {
  /** The operation_id of its logs, e.g. "ga4.run_report", "google_ads.campaign.pause". */
  id: string;
  /**
   * The MCP tool that runs it directly, e.g. "ga4_run_report": only the reads /mcp offered
   * before the catalogue (CONTRACT §8). Every other operation is reached through discovery.
   */
  toolName?: string;
  title: string;
  /** What it does and returns, and when to use it; the model reads this. */
  description: string;
  /**
   * What it lets Patchbay do with the account, in the words the account's owner reads before
   * connecting it ("Pause and enable campaigns and change their budgets", "Read your store's
   * orders"). Operations that do the same thing in the owner's eyes share one phrase; a type's
   * consent text is its reads' and writes' phrases (lib/operations/consent-text.ts). Absent only
   * for a built-in utility, which touches no account.
   */
  consent?: string;
  /**
   * Connection types it runs on, e.g. ["ga4"]; empty for a built-in utility that needs no
   * connection (workflows only).
   */
  types: string[];
  kind: "read" | "write";
  operationVersion: number;
  /** Credits one run that reaches the provider costs. */
  credits: number;
  /** Reads: how long an identical run (same connection and input) is answered from cache; 0 = never. Writes: 0. */
  cacheTtlSeconds: number;
  /**
   * Writes: whether sending it twice leaves the provider as sending it once (it sets a state: a
   * status, a budget, a note). A workflow run taken over after its instance died repeats such a
   * node; any other write that may have reached its provider is not repeated.
   */
  idempotent?: boolean;
  /**
   * Writes: whether it only adds something new (a message, a post, rows, a copy, a new object)
   * and never changes or removes what is there. Absent means it may overwrite, the cautious
   * reading: an MCP client may then ask before each call (its tool's destructiveHint).
   */
  additive?: boolean;
  /** Writes: whether a run from /mcp needs a person's approval (the server's write policy decides). */
  requiresApproval: boolean;
  /** The operation's own input (zod shapes with .describe()); `connection_id` is not part of it. */
  input: z.ZodRawShape;
  /** A valid input, shown by get_operation_inputs and the Operations page. */
  example: Record<string, unknown>;
  /**
   * The shape of what a run returns (zod shapes with .describe()): what a workflow's later nodes,
   * conditions and loops can pick from in the editor, and the MCP tool's outputSchema.
   */
  output?: z.ZodRawShape;
  /**
   * Writes: what the run will do, in plain language, e.g. "Pause Google Ads campaign 123 'Brand — US'
   * in account 999-888-7777". `before` is what the operation's `before` read returned, when it has
   * one and it answered (names the object), else undefined.
   */
  summarize?(input: Record<string, unknown>, connection: OperationConnection, before?: unknown): string;
  /** Writes, optional: a read of the object's current state, shown to the person who approves. */
  before?(ctx: OperationContext, input: Record<string, unknown>): Promise<unknown>;
  run(ctx: OperationContext, input: Record<string, unknown>): Promise<unknown>;
};

/** Input the provider would refuse, caught before calling it. */
export class OperationInputError extends Error {}
