import type { NextRequest } from "next/server";
import { currentUser } from "@/lib/auth/current-user";
import { refuseCrossSite } from "@/lib/auth/authenticate-session";
import { appUrl } from "@/lib/config/env";
import { ApiError, knownError } from "@/lib/errors/api-error";
import { errorResponse } from "@/lib/http/json";
import { readBoundedForm } from "@/lib/http/parse";
import { clientIp, requestIdFrom, runWithContext } from "@/lib/observability/request-context";
import { logRequest } from "@/lib/observability/request-log";
import { WRITE_POLICIES, type WritePolicy } from "@/lib/schemas/write-policy";
import { authorizeQuery, checkAuthorizeRequest } from "@/lib/mcp-oauth/authorize-request";
import { signConsentError } from "@/lib/mcp-oauth/consent-error";
import { decide, type Decision } from "@/lib/mcp-servers/oauth-consent";

export const dynamic = "force-dynamic";

const see = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

/**
 * *Allow* or *Deny* on the consent page. The authorization request is checked again from the
 * form (nothing of it is trusted from the page), the person from the session. A choice she may
 * not make goes back to the consent page with the reason; nothing is created.
 */
export async function POST(req: NextRequest): Promise<Response> {
  const t0 = performance.now();
  const requestId = requestIdFrom(req.headers);
  return runWithContext({ requestId, ip: clientIp(req.headers) }, async () => {
    let res: Response;
    try {
      res = await handle(req);
    } catch (e) {
      res = errorResponse(e);
    }
    res.headers.set("x-request-id", requestId);
    logRequest({ method: "POST", path: "/oauth/consent", status: res.status, startedAt: t0, principal: "session" });
    return res;
  });
}

async function handle(req: NextRequest): Promise<Response> {
  refuseCrossSite(req);
  const form = await readBoundedForm(req, 64 * 1024);
  const user = await currentUser();
  const checked = await checkAuthorizeRequest(form, { signedIn: !!user, ip: clientIp(req.headers) });
  const again = (extra: Record<string, string> = {}) => {
    const q = new URLSearchParams(checked.kind === "ok" ? authorizeQuery(checked.request) : requestPart(form));
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    return `${appUrl()}/oauth/authorize?${q}`;
  };
  if (checked.kind === "page") {
    // The authorization page shows what was wrong; a form too large to carry there gets its reason here.
    const location = again();
    if (location.length > MAX_LOCATION)
      throw new ApiError(400, "This form is not an authorization request Patchbay can show: its fields are too long.");
    return see(location);
  }
  if (checked.kind === "redirect") return see(checked.location);
  if (!user) return see(`${appUrl()}/sign-in?callbackUrl=${encodeURIComponent(again().slice(appUrl().length))}`);
  const ctx = { requestId: requestIdFrom(req.headers), ip: clientIp(req.headers) };
  const decision = readDecision(form);
  try {
    const location = await runWithContext(
      { ...ctx, actor: { kind: "session", userId: user.id, email: user.email } },
      () => decide(user, checked.request, decision),
    );
    return see(location);
  } catch (e) {
    const known = knownError(e);
    if (!known || known.status >= 500) throw e;
    const teamId = decision.allow ? decision.teamId : "";
    const refusal = signConsentError(checked.request, user.id, String(known.detail));
    return see(again({ ...refusal, ...(teamId && { team: teamId }) }));
  }
}

/** A Location header stays well inside what browsers and proxies read (8 KB is common). */
const MAX_LOCATION = 8000;

/** The parameters of the authorization request itself, the only ones carried back to its page. */
const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
  "scope",
];

function requestPart(form: URLSearchParams): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of form) if (AUTHORIZE_PARAMS.includes(k)) q.append(k, v);
  return q;
}

function readDecision(form: URLSearchParams): Decision {
  const answer = form.get("decision");
  if (answer === "deny") return { allow: false };
  if (answer !== "allow") throw new ApiError(400, 'decision must be "allow" or "deny".');
  const teamId = form.get("team_id") ?? "";
  const server = form.get("server") ?? "new";
  if (server !== "new") return { allow: true, teamId, server: { kind: "existing", id: server } };
  const policy = form.get("write_policy") ?? "off";
  if (!(WRITE_POLICIES as readonly string[]).includes(policy))
    throw new ApiError(400, `write_policy must be one of ${WRITE_POLICIES.join(", ")}.`);
  return {
    allow: true,
    teamId,
    server: {
      kind: "new",
      name: form.get("name") ?? "",
      connectionIds: form.getAll("connection_ids"),
      writePolicy: policy as WritePolicy,
    },
  };
}
