import type { NextRequest } from "next/server";
import { acceptInvite } from "@/lib/members/invites";
import { refuseCrossSite, sessionUserId } from "@/lib/auth/authenticate-session";
import { ApiError } from "@/lib/errors/api-error";
import { errorResponse, json } from "@/lib/http/json";
import { parseJsonBody } from "@/lib/http/parse";
import { acceptInviteBodySchema } from "@/lib/schemas/dashboard";
import { appUrl } from "@/lib/config/env";
import { clientIp, requestIdFrom, runWithContext } from "@/lib/observability/request-context";

/**
 * Accepting an invite. The invite page's "Join" button (a form POST, as the signed-in account)
 * is answered with a redirect into the team or back to the page with the error; the new-account
 * form posts JSON `{password, name?}` and gets JSON (201, or `{detail}`).
 */
export async function POST(req: NextRequest, route: { params: Promise<{ token: string }> }) {
  // The audit event of the accept records the address and request id.
  return runWithContext({ requestId: requestIdFrom(req.headers), ip: clientIp(req.headers) }, () => accept(req, route));
}

async function accept(req: NextRequest, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const isForm = !(req.headers.get("content-type") ?? "").includes("application/json");
  try {
    refuseCrossSite(req);
    const userId = await sessionUserId(req);
    const body = isForm ? {} : await parseJsonBody(acceptInviteBodySchema, req);
    const joined = await acceptInvite(token, userId ? { userId } : null, body);
    return isForm
      ? Response.redirect(`${appUrl()}/${joined.team.id}`, 303)
      : json({ team_id: joined.team.id, email: joined.email, role: joined.role }, { status: 201 });
  } catch (e) {
    if (isForm && e instanceof ApiError && typeof e.detail === "string") {
      return Response.redirect(
        `${appUrl()}/invite/${encodeURIComponent(token)}?${new URLSearchParams({ error: e.detail })}`,
        303,
      );
    }
    return errorResponse(e);
  }
}
