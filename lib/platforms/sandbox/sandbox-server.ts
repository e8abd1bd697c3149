import "server-only";
import { createHash } from "node:crypto";
import { redeemCode, SANDBOX_CLIENT_ID, SANDBOX_FORM_BYTES } from "@/lib/platforms/sandbox/sandbox-authorize";
import { readBoundedForm, readBoundedText } from "@/lib/http/parse";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { grantOf, grantOfRefreshToken, isRevoked, issueRefreshToken } from "@/lib/platforms/sandbox/sandbox-grants";
import { isDown } from "@/lib/platforms/sandbox/sandbox-outage";
import { SANDBOX_SCOPES, type SandboxScope } from "@/lib/platforms/sandbox/sandbox-scopes";

// Server side of the sandbox provider (mounted under /sandbox). It behaves like a real OAuth
// provider's token and identity endpoints: any value is accepted except one beginning with
// "bad", which is rejected with a reason text naming the field. Like a real provider, it honours
// revocation: once a grant is revoked (`sandbox revoke`), its refresh token and every access token
// minted from it are refused.

const oauthError = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status, headers: { "cache-control": "no-store" } });

/** An outage (`sandbox outage`): what a provider's API answers while it is down. */
const down = () => oauthError(503, "temporarily_unavailable", "the sandbox provider is down; try again later");

const digest = (v: string) => createHash("sha256").update(v).digest("base64url");

/** Every scope the sandbox knows: what a white-label app's own refresh token is taken to hold. */
const ALL_SCOPES = Object.keys(SANDBOX_SCOPES) as SandboxScope[];

/** Access tokens name the account, the scopes of the grant they come from, and that grant. */
function issueAccessToken(account: string, scope: readonly string[], grant: string) {
  return `sbx_at.${Buffer.from(JSON.stringify({ account, scoped: scope.includes("sandbox.read"), scope, grant })).toString("base64url")}`;
}

/** `scope` is absent from tokens minted before tokens carried it: those stood for sandbox.read alone when `scoped`. */
function readAccessToken(token: string): { account: string; scoped: boolean; scope?: string[]; grant?: string } | null {
  if (!token.startsWith("sbx_at.")) return null;
  try {
    return JSON.parse(Buffer.from(token.slice("sbx_at.".length), "base64url").toString("utf8")) as ReturnType<
      typeof readAccessToken
    >;
  } catch {
    return null;
  }
}

export async function sandboxToken(req: Request): Promise<Response> {
  const form = await readBoundedForm(req, SANDBOX_FORM_BYTES);
  const grant = form.get("grant_type");
  const clientId = form.get("client_id") ?? "";
  const clientSecret = form.get("client_secret") ?? "";
  if (!clientId || clientId.startsWith("bad"))
    return oauthError(401, "invalid_client", "client_id is not a registered client");
  if (!clientSecret || clientSecret.startsWith("bad"))
    return oauthError(401, "invalid_client", "client_secret does not match client_id");
  if (grant === "authorization_code") {
    // Codes come only from the sandbox's own authorize page, for its own OAuth app.
    if (clientId !== (process.env.OAUTH_SANDBOX_CLIENT_ID || SANDBOX_CLIENT_ID))
      return oauthError(401, "invalid_client", "client_id is not the sandbox app");
    const redeemed = redeemCode(form.get("code") ?? "", clientId, form.get("redirect_uri"), form.get("code_verifier"));
    if (typeof redeemed === "string") return oauthError(400, "invalid_grant", redeemed);
    const refreshToken = issueRefreshToken(redeemed.account, redeemed.scope);
    return Response.json({
      access_token: issueAccessToken(redeemed.account, redeemed.scope, grantOf(refreshToken)),
      refresh_token: refreshToken,
      token_type: "Bearer",
      expires_in: 3600,
      scope: redeemed.scope.join(" "),
    });
  }
  if (grant === "refresh_token") {
    const refresh = form.get("refresh_token") ?? "";
    if (!refresh) return oauthError(400, "invalid_request", "refresh_token is required");
    const scoped = !refresh.startsWith("bad_scope");
    if (refresh.startsWith("bad") && scoped) return oauthError(400, "invalid_grant", "refresh_token expired");
    if (await isRevoked(grantOf(refresh)))
      return oauthError(400, "invalid_grant", "refresh_token was revoked by the user");
    // Refresh tokens the sandbox issued name their account and scopes; any other is a white-label
    // test value, holding every scope (`bad_scope…` none).
    const issued = grantOfRefreshToken(refresh);
    const counted = grantOf(refresh);
    await db.sandboxRefresh.upsert({
      where: { grant: counted },
      create: { grant: counted, count: 1 },
      update: { count: { increment: 1 } },
    });
    const account = issued?.account ?? `acct_${digest(refresh).slice(0, 12)}`;
    const scope = !scoped ? [] : (issued?.scope ?? ALL_SCOPES);
    return Response.json({
      access_token: issueAccessToken(account, scope, grantOf(refresh)),
      token_type: "Bearer",
      expires_in: 3600,
      scope: scope.join(" "),
    });
  }
  return oauthError(400, "unsupported_grant_type", `grant_type ${grant ?? "(missing)"} is not supported`);
}

/**
 * The account an API call acts for: an API key (`x-api-key`, sandbox_key) or an access token
 * the token endpoint issued (`Authorization: Bearer`), or the error answer for the caller.
 */
async function authenticate(
  req: Request,
  needs: SandboxScope = "sandbox.read",
): Promise<{ account: string; via: "api_key" | "token" } | Response> {
  const apiKey = req.headers.get("x-api-key");
  if (apiKey !== null) {
    if (!apiKey || apiKey.startsWith("bad")) return oauthError(401, "invalid_api_key", "api_key is not valid");
    const account = `acct_${digest(apiKey).slice(0, 12)}`;
    if (await isDown(account)) return down();
    return { account, via: "api_key" };
  }
  const bearer = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
  const token = bearer ? readAccessToken(bearer) : null;
  if (!token) return oauthError(401, "invalid_token", "access token is missing or invalid");
  if (await isRevoked(token.grant)) return oauthError(401, "invalid_token", "access token was revoked by the user");
  if (!token.scoped) return oauthError(403, "insufficient_scope", "refresh_token lacks the scope sandbox.read");
  const granted = token.scope ?? ["sandbox.read"];
  if (!granted.includes(needs))
    return oauthError(403, "insufficient_scope", `the grant lacks the scope ${needs}: connect again to allow it`);
  if (await isDown(token.account)) return down();
  return { account: token.account, via: "token" };
}

export async function sandboxMe(req: Request): Promise<Response> {
  const caller = await authenticate(req);
  if (caller instanceof Response) return caller;
  return Response.json({
    id: caller.account,
    name: caller.via === "api_key" ? "Sandbox API-key account" : "Sandbox account",
  });
}

export const SANDBOX_REPORT_METRICS = ["sessions", "users", "signups", "revenue"] as const;
const DAY_MS = 86_400_000;

/**
 * GET /sandbox/api/report?metric=sessions&days=7[&end_date=YYYY-MM-DD]: one row per day, the
 * value derived from the account, metric and date (the same question always gets the same answer).
 */
export async function sandboxReport(req: Request): Promise<Response> {
  const caller = await authenticate(req);
  if (caller instanceof Response) return caller;
  const q = new URL(req.url).searchParams;
  const metric = q.get("metric") ?? "";
  if (!(SANDBOX_REPORT_METRICS as readonly string[]).includes(metric)) {
    return oauthError(
      400,
      "invalid_request",
      `metric ${JSON.stringify(metric)} is not one of ${SANDBOX_REPORT_METRICS.join(", ")}`,
    );
  }
  const days = Number(q.get("days") ?? "7");
  if (!Number.isInteger(days) || days < 1 || days > 366)
    return oauthError(400, "invalid_request", "days must be a whole number from 1 to 366");
  const endDate = q.get("end_date") ?? new Date().toISOString().slice(0, 10);
  const end = Date.parse(`${endDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(endDate) || Number.isNaN(end))
    return oauthError(400, "invalid_request", "end_date must be a date YYYY-MM-DD");
  const rows = Array.from({ length: days }, (_, i) => {
    const date = new Date(end - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    const n = parseInt(
      createHash("sha256").update(`${caller.account}/${metric}/${date}`).digest("hex").slice(0, 8),
      16,
    );
    const value =
      metric === "revenue"
        ? Math.round((n % 500_000) / 10) / 10
        : metric === "signups"
          ? n % 50
          : metric === "users"
            ? 50 + (n % 700)
            : 100 + (n % 1500);
    return { date, value };
  });
  const note = await db.sandboxNote.findUnique({ where: { account: caller.account }, select: { note: true } });
  return Response.json({
    account: caller.account,
    metric,
    unit: metric === "revenue" ? "USD" : "count",
    rows,
    total: Math.round(rows.reduce((sum, r) => sum + r.value, 0) * 10) / 10,
    note: note?.note ?? null,
  });
}

export const SANDBOX_NOTE_MAX = 500;

/**
 * POST /sandbox/api/note {"note": "…"} (1–500 characters): stores the account's note (the
 * sandbox's one writable object) and answers {"note", "previous_note"}.
 */
export async function sandboxSetNote(req: Request): Promise<Response> {
  const caller = await authenticate(req, "sandbox.write");
  if (caller instanceof Response) return caller;
  const text = await readBoundedText(req, 16 * 1024).catch(() => null);
  let body: unknown = null;
  try {
    body = text === null ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  const note = body && typeof body === "object" ? (body as { note?: unknown }).note : undefined;
  if (typeof note !== "string" || note.length < 1 || note.length > SANDBOX_NOTE_MAX) {
    return oauthError(400, "invalid_request", `note must be a string of 1 to ${SANDBOX_NOTE_MAX} characters`);
  }
  const previous = await transaction(async (tx) => {
    const before = await tx.sandboxNote.findUnique({ where: { account: caller.account }, select: { note: true } });
    const updatedAt = BigInt(Math.floor(Date.now() / 1000));
    await tx.sandboxNote.upsert({
      where: { account: caller.account },
      create: { account: caller.account, note, updatedAt },
      update: { note, updatedAt },
    });
    return before?.note ?? null;
  });
  return Response.json({ note, previous_note: previous });
}
