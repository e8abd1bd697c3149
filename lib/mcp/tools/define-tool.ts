import { z } from "zod";
import type { ProviderTool, ToolContext } from "@/lib/mcp/tools/types";

type ToolDefinition<S extends z.ZodRawShape> = Omit<ProviderTool, "input" | "run" | "operationVersion"> & {
  operationVersion?: number;
  input: S;
  run(ctx: ToolContext, args: z.infer<z.ZodObject<S>>): Promise<unknown>;
};

/**
 * A ProviderTool whose `run` gets its arguments parsed by its own schema (defaults applied,
 * types known), whatever the caller did before: the tool never talks to a provider with
 * arguments its schema refuses.
 */
export function defineTool<S extends z.ZodRawShape>(def: ToolDefinition<S>): ProviderTool {
  const schema = z.object(def.input);
  return { operationVersion: 1, ...def, run: (ctx, input) => def.run(ctx, schema.parse(input)) };
}
