import { startOAuth } from "@/lib/auth-links/start-oauth";
import { ConnectError } from "@/lib/auth-links/connect-error";
import { authLinkUrl } from "@/lib/auth-links/create-auth-link";
import { LINK_TOKEN_PATTERN } from "@/lib/auth-links/link-token";
import { readBoundedForm } from "@/lib/http/parse";
import { ApiError } from "@/lib/errors/api-error";
import { errorResponse } from "@/lib/http/json";
import { appUrl } from "@/lib/config/env";

/** The connect page's form holds one short field (a Shopify store's domain). */
const MAX_FORM_BYTES = 4 * 1024;

/** "Continue" on the connect page (a form POST, so link previews never start a sign-in). */
export async function POST(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  // Where errors are shown: the link's own page, or the generic one for a token that cannot be one.
  const page = LINK_TOKEN_PATTERN.test(token) ? authLinkUrl(token) : `${appUrl()}/connect`;
  try {
    const { authorizeUrl, cookie } = await startOAuth(token, async () => {
      const shop = (await readBoundedForm(req, MAX_FORM_BYTES)).get("shop");
      return shop ?? undefined;
    });
    return new Response(null, {
      status: 303,
      headers: { location: authorizeUrl, "set-cookie": cookie, "cache-control": "no-store" },
    });
  } catch (e) {
    if (e instanceof ApiError && e.status === 413) return errorResponse(e);
    if (!(e instanceof ConnectError)) throw e;
    return Response.redirect(
      `${page}?${new URLSearchParams({ error: e.code, error_description: e.description })}`,
      303,
    );
  }
}
