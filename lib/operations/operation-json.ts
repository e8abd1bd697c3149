import "server-only";
import { z } from "zod";
import { findConnectionType } from "@/lib/platforms/registry";
import { OPERATIONS } from "@/lib/operations/registry";
import { inputJsonSchema } from "@/lib/operations/run-operation";
import type { Operation } from "@/lib/platforms/kit/operation-types";

export type OperationField = {
  name: string;
  type: string;
  required: boolean;
  description: string | null;
  default?: unknown;
  options?: unknown[];
};

type JsonSchema = {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const typeOf = (s: JsonSchema): string => {
  if (s.enum) return "choice";
  if (s.anyOf) return [...new Set(s.anyOf.map(typeOf))].join(" or ");
  if (s.type === "array") return `list of ${s.items ? typeOf(s.items) : "values"}`;
  return Array.isArray(s.type) ? s.type.join(" or ") : (s.type ?? "any");
};

/** An operation's input fields as a person reads them: name, type, whether required, what it means. */
function operationFields(op: Operation): OperationField[] {
  const schema = inputJsonSchema(op) as JsonSchema;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    type: typeOf(s),
    required: required.has(name) && s.default === undefined,
    description: s.description ?? null,
    ...(s.default !== undefined && { default: s.default }),
    ...((s.enum ?? s.items?.enum) && { options: s.enum ?? s.items?.enum }),
  }));
}

/** One catalogue entry as the Operations page and the docs show it. */
/**
 * An operation's result as JSON Schema, from its `output` shape (also read by the MCP tests).
 * @public
 */
export function outputJsonSchema(op: Operation): Record<string, unknown> | null {
  if (!op.output) return null;
  const { $schema: _, ...schema } = z.toJSONSchema(z.object(op.output), { io: "output", unrepresentable: "any" });
  return schema;
}

export function operationJson(op: Operation) {
  return {
    id: op.id,
    title: op.title,
    description: op.description,
    kind: op.kind,
    requires_approval: op.requiresApproval,
    credits: op.credits,
    cache_ttl_seconds: op.cacheTtlSeconds,
    tool_name: op.toolName ?? null,
    connection_types: op.types.map((type) => ({ type, name: findConnectionType(type)?.name ?? type })),
    fields: operationFields(op),
    example: op.example,
    /** JSON Schema of the result (an object), or null when the catalogue does not describe it yet. */
    output_schema: op.output ? outputJsonSchema(op) : null,
  };
}

export type OperationJson = ReturnType<typeof operationJson>;

/**
 * Connection types this server registers; an operation for a type it does not (the sandbox in
 * production) is left out. Built-in utilities (no connection) are kept.
 */
export const availableOperations = () =>
  OPERATIONS.filter((op) => op.types.length === 0 || op.types.some((t) => findConnectionType(t)));
