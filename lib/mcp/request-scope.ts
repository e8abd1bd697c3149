import "server-only";
import { db } from "@/lib/db/client";
import { badRequest } from "@/lib/errors/api-error";
import { UNSTORABLE } from "@/lib/http/parse";
import type { McpPrincipal } from "@/lib/mcp-tokens/authenticate-mcp-token";
import { SCOPED_CONNECTION_SELECT, scopedConnection, type ScopedConnection } from "@/lib/operations/run-operation";

// Spec §4.13: a request to /mcp may be narrowed to specific connections, by the
// `X-Service-Context` header ({"connection_ids": [...]}) or the `connection_ids` query
// (comma-separated). The header wins when both are given; an empty list allows none; with
// neither, the server's saved permissions apply. Narrowing never widens: the saved
// permissions are the most any request can reach.

const SERVICE_CONTEXT_HEADER = "x-service-context";
const MAX_IDS = 1000;
const MAX_ID_LENGTH = 255;

export type Narrowing = { source: "saved" } | { source: "header" | "query"; ids: string[] };

const SHAPE = `send {"connection_ids": ["conn_…", …]}`;

function checkIds(ids: string[], where: string) {
  if (ids.length > MAX_IDS) throw badRequest(`${where}: at most ${MAX_IDS} connection ids, got ${ids.length}.`);
  const long = ids.find((id) => id.length > MAX_ID_LENGTH);
  if (long !== undefined) throw badRequest(`${where}: a connection id is longer than ${MAX_ID_LENGTH} characters.`);
  // No id holds these, and the database refuses them in a query (a 500, not a 400).
  if (ids.some((id) => UNSTORABLE.test(id)))
    throw badRequest(`${where}: a connection id contains NUL or an unpaired surrogate.`);
  return ids;
}

/** What the request asks for; a malformed header is a 400, never read as "no narrowing". */
export function readNarrowing(headers: Headers, query: URLSearchParams): Narrowing {
  const header = headers.get(SERVICE_CONTEXT_HEADER);
  if (header !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(header);
    } catch {
      throw badRequest(`X-Service-Context is not valid JSON; ${SHAPE}.`);
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      throw badRequest(`X-Service-Context must be a JSON object; ${SHAPE}.`);
    const ids = (parsed as Record<string, unknown>).connection_ids;
    if (ids === undefined) throw badRequest(`X-Service-Context has no connection_ids; ${SHAPE}.`);
    if (!Array.isArray(ids))
      throw badRequest(`X-Service-Context connection_ids must be an array of connection id strings; ${SHAPE}.`);
    const bad = ids.findIndex((id) => typeof id !== "string" || id.trim() === "");
    if (bad !== -1) throw badRequest(`X-Service-Context connection_ids[${bad}] must be a non-empty string.`);
    return { source: "header", ids: checkIds(ids as string[], "X-Service-Context connection_ids") };
  }
  if (query.has("connection_ids")) {
    const ids = query
      .getAll("connection_ids")
      .flatMap((v) => v.split(","))
      .map((id) => id.trim())
      .filter(Boolean);
    return { source: "query", ids: checkIds(ids, "connection_ids") };
  }
  return { source: "saved" };
}

/**
 * The connections this request may use: the server's saved permissions that are shared, plus
 * the server owner's private ones when the token is the owner's own (a token someone else
 * minted on the server, a team owner's say, never reaches a member's private connection),
 * narrowed by the request. Ids outside the saved permissions are never reachable, whether they
 * exist or not.
 */
export async function resolveScope(principal: McpPrincipal, narrowing: Narrowing): Promise<ScopedConnection[]> {
  const { server } = principal;
  if (narrowing.source !== "saved" && narrowing.ids.length === 0) return [];
  // The token's creator was checked for membership when it authenticated: an owner who left the
  // team takes their private connections with them.
  const owner = server.ownerUserId && principal.user?.id === server.ownerUserId ? { userId: server.ownerUserId } : null;
  const rows = await db.connection.findMany({
    where: {
      teamId: server.teamId,
      mcpServers: { some: { mcpServerId: server.id } },
      OR: [{ ownerUserId: null }, ...(owner ? [{ ownerUserId: owner.userId }] : [])],
      ...(narrowing.source === "saved" ? {} : { id: { in: [...new Set(narrowing.ids)] } }),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: SCOPED_CONNECTION_SELECT,
  });
  return rows.map(scopedConnection);
}
