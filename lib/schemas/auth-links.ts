import { z } from "zod";
import { int64 } from "@/lib/schemas/common";
import { ConnectionSchema } from "@/lib/schemas/connections";

/** Whitespace, C0/C1 controls, zero-width and bidirectional marks, BOM. */
const INVISIBLE =
  // Control characters and lone fillers (U+115F, U+1160) are what it matches, one code unit at a time.
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- see the line above
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\ufff0-\uffff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const createAuthLinkBodySchema = z
  .object({
    connection_type: z.string().min(1, "is required").max(64, "is longer than 64 characters"),
    redirect_url: z
      .string()
      .max(2048, "is longer than 2048 characters")
      .refine((value) => {
        try {
          // The host is written out: "https:///x" or "https:x" would be read as https://x/.
          return /^https:\/\/[^/?#\\]/i.test(value) && new URL(value).protocol === "https:";
        } catch {
          return false;
        }
      }, "must be an absolute https:// URL")
      // A browser shows neither of these plainly: `https://bank.example@evil.example/` reads as
      // the bank, and invisible or bidirectional characters can disguise the host.
      .refine((value) => !/^[a-z]+:\/*[^/?#]*@/i.test(value), "must not carry a user name or password")
      .refine(
        (value) => !INVISIBLE.test(value) && !LONE_SURROGATE.test(value),
        "must not contain spaces, control, invisible or bidirectional characters",
      )
      .meta({ format: "uri" })
      .optional()
      .describe("Where the browser goes after the OAuth provider returns. Must use HTTPS."),
    external_id: z
      .string()
      .min(1, "must not be empty")
      .max(255, "must be at most 255 characters")
      .optional()
      .describe("Stored on the created connection and echoed in the redirect; opaque, no personal data."),
    is_private: z
      .boolean({ error: "must be true or false" })
      .optional()
      .describe("Default false (shared with the workspace)."),
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
