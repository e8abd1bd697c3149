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
  return JSON.parse(JSON.stringify(out).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

export function buildOpenApiDocument(baseUrl: string) {
  const components = z.toJSONSchema(z.globalRegistry, { io: "output", unrepresentable: "any", uri: ref, target: "draft-2020-12" }).schemas as Record<string, Json>;
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
