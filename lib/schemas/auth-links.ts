import { z } from "zod";
import { int64 } from "@/lib/schemas/common";
import { ConnectionSchema } from "@/lib/schemas/connections";

export const createAuthLinkBodySchema = z
  .object({
    connection_type: z.string().min(1, "is required").max(64, "is longer than 64 characters"),
    redirect_url: z
      .string()
      .max(2048, "is longer than 2048 characters")
      .refine((value) => {
        try {
          return new URL(value).protocol === "https:";
        } catch {
          return false;
        }
      }, "must be an absolute https:// URL")
      .meta({ format: "uri" })
      .optional()
      .describe("Where the browser goes after the OAuth provider returns. Must use HTTPS."),
    external_id: z
      .string()
      .min(1, "must not be empty")
      .max(255, "must be at most 255 characters")
      .optional()
      .describe("Stored on the created connection and echoed in the redirect; opaque, no personal data."),
    is_private: z.boolean({ error: "must be true or false" }).optional().describe("Default false (shared with the workspace)."),
  })
  .strict();
export type CreateAuthLinkBody = z.infer<typeof createAuthLinkBodySchema>;

export const AuthLinkSchema = z
  .object({
    id: z.string().describe("Used with the status endpoint."),
    url: z.string().meta({ format: "uri" }).describe("Address to send the end user to."),
    expires_at: int64().describe("Expiry time in milliseconds."),
  })
  .meta({ id: "AuthLink" });

export const AuthLinkStatusSchema = z
  .object({
    id: z.string(),
    status: z.enum(["pending", "connected", "expired"]),
    connection_type: z.string(),
    connection_id: z.string().nullable().optional(),
    external_id: z.string().nullable().optional(),
    expires_at: int64().describe("Milliseconds."),
    consumed_at: int64().nullable().optional().describe("Milliseconds."),
    created_at: int64().describe("Milliseconds."),
    updated_at: int64().describe("Milliseconds."),
    connections: z.array(ConnectionSchema).describe("The created connection when status is connected."),
  })
  .meta({ id: "AuthLinkStatus" });
