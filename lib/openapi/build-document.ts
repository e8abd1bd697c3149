import { z } from "zod";
import { operations } from "@/lib/openapi/operations";
import { ErrorSchema } from "@/lib/schemas/common";
import {
  webhookEventDescription,
  webhookEventSchemaId,
  webhookEventSchemas,
  type WebhookEventName,
} from "@/lib/schemas/webhook-events";
import { codeSamples } from "@/lib/openapi/code-samples";

type Json = Record<string, unknown>;

const ref = (id: string) => `#/components/schemas/${id}`;

/** Inline schema, with registered shapes (`.meta({id})`) as $refs into components. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete out.$schema;
  delete out.$defs; // every registered shape is in components.schemas
  return inComponents(out);
}

/** JSON Schema whose `$defs` references point into the document's components, tidied. */
const inComponents = (schema: Json): Json =>
  tidy(JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json);

/**
 * Query parameters are parsed from strings but documented as the integers they stand for, and
 * integer fields without JavaScript's ±2^53 bounds; `$id`s (fragments) are not valid in 3.1.
 */
function tidy<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(tidy);
  else if (node && typeof node === "object") {
    const n = node as Json;
    if (n.type === "integer") delete n.pattern;
    // zod bounds every integer by JavaScript's ±2^53, which says nothing about the field (and a
    // renderer would show -9007199254740991 as its example); a real bound stays.
    if (n.type === "integer") {
      if (n.maximum === Number.MAX_SAFE_INTEGER) delete n.maximum;
      if (n.minimum === -Number.MAX_SAFE_INTEGER) delete n.minimum;
    }
    delete n.$id;
    Object.values(n).forEach(tidy);
  }
  return node;
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Statuses any operation can answer, whatever it does (an operation's own text replaces the 400 here). */
const COMMON_ERRORS = {
  400: "Invalid input: a query or path parameter (an unknown one too), or the body.",
  401: "Missing, invalid or revoked API key.",
  429: "Over the API key's rate limit (RATE_LIMIT_API_PER_MINUTE requests per window): wait Retry-After seconds.",
  500: "An unexpected error inside Patchbay; detail carries the request id it was logged under.",
  503: "The database is unavailable; retry after Retry-After seconds.",
};

/** Headers of a response that got past authentication: its request id and the key's rate-limit count. */
const COUNTED = {
  "X-Request-Id": header("X-Request-Id"),
  "RateLimit-Limit": header("RateLimit-Limit"),
  "RateLimit-Remaining": header("RateLimit-Remaining"),
  "RateLimit-Reset": header("RateLimit-Reset"),
  "RateLimit-Policy": header("RateLimit-Policy"),
};
const required = (name: string) => ({ ...header(name), required: true });
const ERROR_HEADERS: Record<string, Json> = {
  401: { "X-Request-Id": header("X-Request-Id"), "WWW-Authenticate": required("WWW-Authenticate") },
  429: {
    "X-Request-Id": header("X-Request-Id"),
    "Retry-After": required("Retry-After"),
    "RateLimit-Limit": required("RateLimit-Limit"),
    "RateLimit-Remaining": required("RateLimit-Remaining"),
    "RateLimit-Reset": required("RateLimit-Reset"),
    "RateLimit-Policy": required("RateLimit-Policy"),
  },
  503: { ...COUNTED, "Retry-After": required("Retry-After") },
};

const HEADERS = {
  "X-Request-Id": {
    description:
      "The request's id (the caller's X-Request-Id when it is sane): quote it when reporting a problem; the server's log line carries it.",
    schema: { type: "string" },
  },
  "RateLimit-Limit": {
    description: "Requests the API key may make per window (present while rate limits are on).",
    schema: { type: "integer", minimum: 1 },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window.",
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Reset": { description: "Seconds until the current window ends.", schema: { type: "integer", minimum: 1 } },
  "RateLimit-Policy": { description: "`<limit>;w=<window seconds>`.", schema: { type: "string" } },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
  "WWW-Authenticate": { description: '`Bearer realm="patchbay"`.', schema: { type: "string" } },
  Allow: { description: "The methods the path takes.", schema: { type: "string" } },
};

const WEBHOOK_HEADERS = [
  {
    name: "webhook-id",
    description: "The event's id, equal to the body's `id`: the same at every attempt and every endpoint.",
  },
  {
    name: "webhook-timestamp",
    description: "Unix seconds of this attempt; refuse one more than 5 minutes from your clock.",
  },
  {
    name: "webhook-signature",
    description:
      "`v1,<base64 HMAC-SHA256>` of `id.timestamp.body`, keyed by the base64-decoded part of the endpoint's `whsec_` secret; space-separated, two of them for 24 h after a secret rotation.",
  },
];

/**
 * The events Patchbay POSTs to the team's webhook endpoints (Standard Webhooks), one entry per
 * type: the body is the registered `…Event` component. Any 2xx acknowledges a delivery.
 */
function webhooks(): Record<string, Json> {
  return Object.fromEntries(
    (Object.keys(webhookEventSchemas) as WebhookEventName[]).map((type) => [
      type,
      {
        post: {
          tags: ["Webhooks"],
          summary: type,
          description: webhookEventDescription(type),
          operationId: `webhook${webhookEventSchemaId(type).replace(/Event$/, "")}`,
          // Signed with the endpoint's secret (the headers below), not sent with an API key.
          security: [],
          parameters: WEBHOOK_HEADERS.map((h) => ({ ...h, in: "header", required: true, schema: { type: "string" } })),
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: ref(webhookEventSchemaId(type)) } } },
          },
          responses: {
            "2XX": {
              description:
                "Received: the delivery is done. Anything else, a redirect or no answer within WEBHOOK_TIMEOUT_MS is retried on the schedule at /docs/webhooks.",
            },
          },
        },
      },
    ]),
  );
}

/**
 * Every registered shape (`.meta({id})`) the operations and webhook bodies use, converted
 * together from this module's own schema objects. Not from z.globalRegistry: Next bundles the
 * schema modules into each layer (route handlers, pages), so a process holds several copies of
 * `Connection`, the registry lists whichever copy was evaluated last, and converting it beside
 * another copy nested in `AuthLinkStatus` fails ("Duplicate schema id"): the document was a 500
 * depending on which pages had been served first.
 */
function componentSchemas(): Record<string, Json> {
  const roots: Record<string, z.ZodType> = { error: ErrorSchema };
  operations.forEach((op, i) => {
    roots[`response${i}`] = op.response;
    if (op.body) roots[`body${i}`] = op.body;
    for (const [status, error] of Object.entries(op.errors))
      if (typeof error === "object") roots[`error${i}_${status}`] = error.schema;
  });
  for (const [type, schema] of Object.entries(webhookEventSchemas)) roots[type] = schema;
  const all = z.toJSONSchema(z.object(roots), {
    io: "output",
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as Json;
  return inComponents((all.$defs ?? {}) as Json) as Record<string, Json>;
}

/**
 * Who holds API keys and what one reaches, as the code decides it (lib/api-keys): the dashboard
 * creates keys on the Team plan only, the operator's command line on any plan, and a key works
 * whatever the plan until it is revoked.
 */
const API_KEY_SCHEME =
  "An API key of the team (`pbk_…`). Team owners create and revoke keys in the dashboard (Settings → API keys) while the team is on the Team plan; the operator's command line (`apikey create`) creates them for a team on any plan. A key keeps working, whatever the team's plan, until it is revoked. It acts for its team and the member who created it: the team's shared connections plus that member's private ones, the team's auth links, and every log the team wrote.";

export function buildOpenApiDocument(baseUrl: string) {
  const components = componentSchemas();
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
      // Required when the handler refuses the request without it (usage's group_by, from and to).
      const required = !(field as z.ZodType).safeParse(undefined).success;
      parameters.push({ name, in: "query", required, ...(description && { description }), schema });
    }
    for (const [name, { description, maxLength }] of Object.entries(op.headers ?? {})) {
      parameters.push({
        name,
        in: "header",
        required: false,
        description,
        schema: { type: "string", ...(maxLength && { maxLength }) },
      });
    }
    const responses: Json = {
      [op.status ?? 200]: {
        description: op.responseDescription ?? (op.status === 201 ? "Created" : "OK"),
        headers: COUNTED,
        content: {
          "application/json": { schema: schemaOf(op.response, "output") },
          ...(op.eventStream && {
            "text/event-stream": { schema: { type: "string", description: op.eventStream } },
          }),
        },
      },
    };
    for (const [status, error] of Object.entries({ ...COMMON_ERRORS, ...op.errors })) {
      const { description, schema } = typeof error === "string" ? { description: error, schema: undefined } : error;
      responses[status] = {
        description,
        headers: ERROR_HEADERS[status] ?? COUNTED,
        content: { "application/json": { schema: schema ? schemaOf(schema, "output") : { $ref: ref("Error") } } },
      };
    }
    (paths[op.path] ??= {})[op.method] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description && { description: op.description }),
      operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, "By_$1").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      ...(parameters.length && { parameters }),
      ...(op.body && {
        requestBody: {
          required: !op.bodyOptional,
          content: { "application/json": { schema: schemaOf(op.body, "input") } },
        },
      }),
      responses,
      "x-codeSamples": codeSamples(op, baseUrl),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Patchbay API",
      version: "1.0.0",
      description:
        "Connections, operation logs and credits of a team workspace. Every endpoint takes `Authorization: Bearer <API_KEY>`. Errors are `{detail}` with the statuses each operation lists. A path answers a method it does not list with 405 and `Allow` (components.responses.MethodNotAllowed), and an unknown path under /v1 with 404 (components.responses.UnknownPath); a path with a trailing or doubled slash, a backslash or a dot segment is redirected (308), in at most two steps, to its plain form. Timestamps: logs and credits in Unix seconds; connection and auth-link responses in milliseconds (the create-from-credentials response in seconds). `webhooks` lists the events sent to a team's webhook endpoints. The TypeScript client `@patchbay/client` is generated from this document; each operation shows its call.",
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: API_KEY_SCHEME,
        },
      },
      schemas: components,
      headers: HEADERS,
      responses: {
        MethodNotAllowed: {
          description: "The path does not take this method; `Allow` lists the ones it does.",
          headers: { Allow: required("Allow") },
          content: { "application/json": { schema: { $ref: ref("Error") } } },
        },
        UnknownPath: {
          description: "No operation at this path.",
          content: { "application/json": { schema: { $ref: ref("Error") } } },
        },
      },
    },
  };
}
