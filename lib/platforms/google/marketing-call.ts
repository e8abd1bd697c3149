import "server-only";
import { googleAccessToken, googleApiCall } from "@/lib/platforms/google/google-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import type { OperationContext } from "@/lib/platforms/kit/operation-types";

// The one call shape of the Google marketing products (Merchant Center, Business Profile, YouTube,
// Display & Video 360): the connection's access token (OAuth, or the white-label client's refresh
// grant) and one JSON call of the product's REST API; Google's errors become rejections there.

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One call of a Google API on an operation's connection; `query` values left undefined are not sent. */
export async function marketingCall(
  { connection, credentials }: OperationContext,
  url: string,
  what: string,
  { query = {}, method, body }: { query?: Record<string, string | undefined>; method?: Method; body?: unknown } = {},
) {
  const accessToken = await googleAccessToken(connection.type, credentials);
  return googleApiCall(connection.type, urlWith(url, query), accessToken, what, { method, body });
}

/** A string field of a Google answer, or null. */
export const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** A Google int64 (a string in JSON) or number as a number, or null. */
export function count(v: unknown): number | null {
  const n = typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : typeof v === "number" ? v : NaN;
  return Number.isFinite(n) ? n : null;
}

/** The last segment of a resource name: "accounts/123" → "123". */
export const lastSegment = (name: unknown): string | null =>
  typeof name === "string" && name ? (name.split("/").pop() ?? null) : null;
