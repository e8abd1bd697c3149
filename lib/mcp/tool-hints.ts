import "server-only";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Operation } from "@/lib/platforms/kit/operation-types";

type Hints = Required<Pick<ToolAnnotations, "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint">>;

/**
 * The MCP hints of a tool that may run any of `ops` (one for a direct tool, a slice of the
 * catalogue for run_operation), from what the catalogue knows of each, so a new operation
 * changes them without anyone editing a tool. A tool is only as safe as the least safe thing it
 * can run. With no operation (list_connections, find_operations…) the tool only reads Patchbay's
 * own data: read-only, repeatable, closed world. All four are always set, since the spec's
 * defaults for a missing hint are the worst case (a destructive, open-world write).
 */
export function toolHints(ops: readonly Operation[]): Hints {
  return {
    readOnlyHint: ops.every((op) => op.kind === "read"),
    destructiveHint: ops.some((op) => op.kind === "write" && op.additive !== true),
    idempotentHint: ops.every((op) => op.kind === "read" || op.idempotent === true),
    // A built-in utility (no connection type) reaches no provider.
    openWorldHint: ops.some((op) => op.types.length > 0),
  };
}
