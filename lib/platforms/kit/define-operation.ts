import { z } from "zod";
import type { Operation, OperationConnection, OperationContext } from "@/lib/platforms/kit/operation-types";
import { bytes, jsonBytesWithin, LimitExceeded, utilityMaxOutputBytes } from "@/lib/config/limits";

type Input<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

type Common<S extends z.ZodRawShape> = Omit<
  Operation,
  "input" | "run" | "before" | "summarize" | "operationVersion" | "kind" | "requiresApproval" | "cacheTtlSeconds"
> & {
  operationVersion?: number;
  input: S;
  /**
   * Required here, though optional on Operation: every operation of the catalogue says what it
   * returns (the editor's field picker and the direct MCP tool's outputSchema read it).
   */
  output: z.ZodRawShape;
  example: Input<S> extends infer T ? Partial<{ [K in keyof T]: unknown }> & Record<string, unknown> : never;
  run(ctx: OperationContext, input: Input<S>): Promise<unknown>;
};

export type ReadDefinition<S extends z.ZodRawShape> = Common<S> & { cacheTtlSeconds: number; consent: string };

export type WriteDefinition<S extends z.ZodRawShape> = Common<S> & {
  /**
   * What the owner of the account allows by connecting it, e.g. "Create and update contacts": shown
   * under "Can change".
   */
  consent: string;
  /** Default true. */
  requiresApproval?: boolean;
  summarize(input: Input<S>, connection: OperationConnection, before?: unknown): string;
  before?: (ctx: OperationContext, input: Input<S>) => Promise<unknown>;
};

/**
 * A read whose `run` gets its input parsed by its own schema (defaults applied, types known),
 * whatever the caller did before: it never talks to a provider with input its schema refuses.
 */
export function defineRead<S extends z.ZodRawShape>(def: ReadDefinition<S>): Operation {
  const schema = z.object(def.input);
  return {
    operationVersion: 1,
    ...def,
    kind: "read",
    requiresApproval: false,
    run: (ctx, input) => def.run(ctx, schema.parse(input)),
  };
}

/** A write: like defineRead, plus the summary a person approves and, optionally, the object's state before. */
export function defineWrite<S extends z.ZodRawShape>(def: WriteDefinition<S>): Operation {
  const schema = z.object(def.input);
  const before = def.before;
  return {
    operationVersion: 1,
    ...def,
    kind: "write",
    cacheTtlSeconds: 0,
    requiresApproval: def.requiresApproval ?? true,
    summarize: (input, connection, state) => def.summarize(schema.parse(input), connection, state),
    before: before ? (ctx, input) => before(ctx, schema.parse(input)) : undefined,
    run: (ctx, input) => def.run(ctx, schema.parse(input)),
  };
}

/** Whose run a built-in serves: the workflow's team and the user it runs for (its creator). */
export type BuiltinScope = { teamId: string; userId: string | null };

export type UtilityDefinition<S extends z.ZodRawShape> = Omit<Common<S>, "types" | "credits" | "run" | "consent"> & {
  run(input: Input<S>, scope: BuiltinScope): unknown; /* the result, or a promise of it */
};

/**
 * A built-in utility of workflows (filter rows, format a text): no connection, no provider, no
 * credits, no cache. It lives in the catalogue like any operation, so a node names it the same way.
 */
export function defineUtility<S extends z.ZodRawShape>(def: UtilityDefinition<S>): Operation {
  const schema = z.object(def.input);
  const run = async (input: unknown, scope: BuiltinScope) => {
    const output = await def.run(schema.parse(input), scope);
    // A utility that can multiply its input (format_text, pick_fields) also counts while it builds.
    const limit = utilityMaxOutputBytes();
    const size = jsonBytesWithin(output, limit);
    if (size > limit) throw utilityOutputTooLarge(def.id, size, limit);
    return output;
  };
  return {
    operationVersion: 1,
    ...def,
    types: [],
    credits: 0,
    cacheTtlSeconds: 0,
    kind: "read",
    requiresApproval: false,
    // A built-in's context is its run's scope (lib/workflows/run-workflow.ts), not a connection.
    run: (ctx, input) => run(input, ctx as unknown as BuiltinScope),
  };
}

/**
 * The failure of a utility whose output grew past UTILITY_MAX_OUTPUT_BYTES; `reached` is how big it
 * was when it was stopped.
 */
export function utilityOutputTooLarge(id: string, reached: number, limit = utilityMaxOutputBytes()) {
  return new LimitExceeded(
    `${id}'s output would be larger than ${bytes(limit)}, the limit of a utility's output (UTILITY_MAX_OUTPUT_BYTES); it had reached ${bytes(reached)} when it was stopped`,
  );
}
