import { startOAuth } from "@/lib/auth-links/start-oauth";
import { ConnectError } from "@/lib/auth-links/connect-error";
import { authLinkUrl } from "@/lib/auth-links/create-auth-link";

/** "Continue" on the connect page (a form POST, so link previews never start a sign-in). */
export async function POST(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const form = await req.formData().catch(() => null);
  const shop = form?.get("shop");
  try {
    const url = await startOAuth(token, { shop: typeof shop === "string" ? shop : undefined });
    return Response.redirect(url, 303);
  } catch (e) {
    if (!(e instanceof ConnectError)) throw e;
    return Response.redirect(`${authLinkUrl(token)}?${new URLSearchParams({ error: e.code, error_description: e.description })}`, 303);
  }
}
