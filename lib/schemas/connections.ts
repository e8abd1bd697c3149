import { z } from "zod";
import { idParam, int64 } from "@/lib/schemas/common";

/** CONTRACT §12: what the last identity check (or use) found. */
export const CONNECTION_HEALTHS = ["healthy", "needs_reauth", "unreachable"] as const;
export type ConnectionHealth = (typeof CONNECTION_HEALTHS)[number];

export const ConnectionSchema = z
  .object({
    id: z.string().nullable().describe("Public connection ID; safe to store."),
    type: z.string().describe("Connection type identifier."),
    display_name: z
      .string()
      .nullable()
      .optional()
      .describe("Label. For connections created from credentials it equals the `name` sent."),
    external_id: z
      .string()
      .nullable()
      .optional()
      .describe("Caller-chosen ID set when an auth link was created; null for connections created from credentials."),
    is_private: z.boolean().describe("True when restricted to the user who owns the API key."),
    created_at: int64()
      .nullable()
      .optional()
      .describe("Milliseconds, except in the create-from-credentials response (Unix seconds)."),
    updated_at: int64().nullable().optional().describe("Same unit rules as created_at."),
  })
  .meta({ id: "Connection" });
export type ConnectionJson = z.infer<typeof ConnectionSchema>;

export const ConnectionTypeSchema = z
  .object({
    type: z.string(),
    name: z.string(),
    auth_methods: z
      .array(z.enum(["oauth", "manual"]))
      .min(1)
      .describe(
        "How the type can be connected on this server: `manual` = POST /v1/connections, `oauth` = an auth link. Never empty: a type that cannot be connected here is not listed.",
      ),
    credential_fields: z.array(z.string()).nullable().optional(),
    docs_url: z
      .string()
      .meta({ format: "uri" })
      .nullable()
      .optional()
      .describe("Plain-markdown page explaining where each credential comes from."),
  })
  .meta({ id: "ConnectionType" });
export type ConnectionTypeJson = z.infer<typeof ConnectionTypeSchema>;

export const listConnectionsQuerySchema = z
  .object({
    external_id: idParam("external_id").optional().describe("Filter by external ID."),
    type: idParam("type", 64).optional().describe("Filter by connection type."),
  })
  .strict();

export const getConnectionQuerySchema = z
  .object({
    lookup_by: z
      .enum(["id", "external_id"], { error: "must be `id` or `external_id`" })
      .optional()
      .default("id")
      .describe("Look up by connection ID (default) or by external ID."),
  })
  .strict();

export const createConnectionBodySchema = z
  .object({
    connection_type: z
      .string()
      .min(1, "is required")
      .max(64, "is longer than 64 characters")
      .describe("A type whose auth_methods include `manual`."),
    name: z
      .string({ error: "is required and must be a string" })
      .max(100, "must be at most 100 characters")
      .refine((name) => name.trim().length > 0, "must not be empty or blank")
      .describe("Caller's label, maximum 100 characters."),
    credentials: z
      .record(
        z.string(),
        z.string({ error: "every credential value must be a string" }).max(8192, "is longer than 8192 characters"),
        {
          error: "is required: an object of the type's credential_fields with string values",
        },
      )
      .describe("Exactly the credential_fields listed for the type."),
    is_private: z
      .boolean({ error: "must be true or false" })
      .optional()
      .describe("Default false. Omit when replacing credentials to keep the current visibility."),
  })
  .strict();
export type CreateConnectionBody = z.infer<typeof createConnectionBodySchema>;
