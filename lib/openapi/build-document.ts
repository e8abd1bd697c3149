import { z } from "zod";
import { operations } from "@/lib/openapi/operations";
import { ErrorSchema } from "@/lib/schemas/common";

type Json = Record<string, unknown>;

const ref = (id: string) => `#/components/schemas/${id}`;

/** Inline schema, with registered shapes (`.meta({id})`) as $refs into components. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete out.$schema;
  delete out.$defs; // every registered shape is in components.schemas
  return tidy(JSON.parse(JSON.stringify(out).replaceAll('"#/$defs/', '"#/components/schemas/')));
}

/**
 * Query parameters are parsed from strings but documented as the integers they stand for, and
 * int64 fields without JavaScript's ±2^53 bounds; `$id`s (fragments) are not valid in 3.1.
 */
function tidy<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(tidy);
  else if (node && typeof node === "object") {
    const n = node as Json;
    if (n.type === "integer") delete n.pattern;
    if (n.format === "int64" && Math.abs(Number(n.maximum)) === Number.MAX_SAFE_INTEGER) {
      delete n.maximum;
      if (n.minimum === -Number.MAX_SAFE_INTEGER) delete n.minimum;
    }
    delete n.$id;
    Object.values(n).forEach(tidy);
  }
  return node;
}

export function buildOpenApiDocument(baseUrl: string) {
  const components = tidy(z.toJSONSchema(z.globalRegistry, { io: "output", unrepresentable: "any", uri: ref, target: "draft-2020-12" }).schemas as Record<string, Json>);
  for (const s of Object.values(components)) delete s.$schema;
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    const parameters: Json[] = [];
    for (const [name, description] of Object.entries(op.pathParams ?? {})) {
      parameters.push({ name, in: "path", required: true, description, schema: { type: "string" } });
    }
    for (const [name, field] of Object.entries(op.query?.shape ?? {})) {
      const schema = schemaOf(field as z.ZodType, "input");
      const description = (schema.description as string | undefined) ?? undefined;
      delete schema.description;
      // zod leaves `default` out of input-side JSON Schema; the parameter's meta carries it.
      const fallback = z.globalRegistry.get(field as z.ZodType)?.default;
      if (fallback !== undefined) schema.default = fallback;
      parameters.push({ name, in: "query", required: false, ...(description && { description }), schema });
    }
    const responses: Json = {
      200: { description: op.responseDescription ?? "OK", content: { "application/json": { schema: schemaOf(op.response, "output") } } },
    };
    for (const [status, description] of Object.entries(op.errors)) {
      responses[status] = { description, content: { "application/json": { schema: { $ref: ref("Error") } } } };
    }
    (paths[op.path] ??= {})[op.method] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description && { description: op.description }),
      operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, "By_$1").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      ...(parameters.length && { parameters }),
      ...(op.body && { requestBody: { required: true, content: { "application/json": { schema: schemaOf(op.body, "input") } } } }),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Patchbay API",
      version: "1.0.0",
      description:
        "Connections, operation logs and credits of a team workspace. Every endpoint takes `Authorization: Bearer <API_KEY>`. Errors are `{detail}`. Timestamps: logs and credits in Unix seconds; connection and auth-link responses in milliseconds (the create-from-credentials response in seconds).",
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key created by a team owner (Team plan)." } },
      schemas: { ...components, Error: components.Error ?? schemaOf(ErrorSchema, "output") },
    },
  };
}
