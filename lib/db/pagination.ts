import "server-only";
import { secrets } from "@/lib/config/env";
import { badRequest } from "@/lib/errors/api-error";
import { hmac, safeEqual, sha256Hex } from "@/lib/security/hashing";

// Keyset pagination: the cursor carries the (sort key, id) of the last row of the page, a
// fingerprint of the filters it was made for, and an HMAC so it cannot be forged or edited.

export type Position = { at: number; id: string | number };

const INVALID = "Invalid cursor: pass back next_cursor exactly as it was returned.";

function fingerprint(scope: string, filters: Record<string, unknown>): string {
  // JSON of the sorted entries: unambiguous whatever characters a filter value holds.
  const entries = Object.keys(filters)
    .filter((k) => filters[k] !== undefined)
    .sort()
    .map((k) => [k, String(filters[k])]);
  return sha256Hex(JSON.stringify([scope, entries])).slice(0, 16);
}

const sign = (payload: string) => hmac(secrets().authSecret, `cursor:${payload}`).subarray(0, 16);

export function encodeCursor(scope: string, filters: Record<string, unknown>, position: Position): string {
  const payload = Buffer.from(JSON.stringify([1, position.at, position.id, fingerprint(scope, filters)])).toString(
    "base64url",
  );
  return `${payload}.${sign(payload).toString("base64url")}`;
}

export function decodeCursor(scope: string, filters: Record<string, unknown>, cursor: string): Position {
  const [payload, mac, extra] = cursor.split(".");
  if (!payload || !mac || extra !== undefined) throw badRequest(INVALID);
  if (!safeEqual(sign(payload), Buffer.from(mac, "base64url"))) throw badRequest(INVALID);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw badRequest(INVALID);
  }
  const [version, at, id, fp] = parsed as [number, number, string | number, string];
  if (version !== 1 || typeof at !== "number") throw badRequest(INVALID);
  if (fp !== fingerprint(scope, filters)) {
    throw badRequest(
      "This cursor was made for other filters: keep every parameter but `cursor` and `limit` unchanged while paging, or start again without a cursor.",
    );
  }
  return { at, id };
}

/** Fetch limit + 1 rows; the extra row only says whether there is a next page. */
export function toPage<Row, Out>(
  rows: Row[],
  limit: number,
  toJson: (r: Row) => Out,
  positionOf: (r: Row) => Position,
  cursorFor: (p: Position) => string,
) {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: pageRows.map(toJson),
    has_more: hasMore,
    next_cursor: hasMore ? cursorFor(positionOf(pageRows[pageRows.length - 1])) : null,
  };
}
