import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/auth-options";
import { readBoundedText } from "@/lib/http/parse";
import { errorResponse } from "@/lib/http/json";
import { badRequest } from "@/lib/errors/api-error";

// next-auth v4 types its handler `any`.
type Handler = (req: NextRequest, context: Context) => Promise<Response>;
const handler = NextAuth(authOptions) as Handler;

/** A sign-in form is an email, a password and a CSRF token: a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth reads a POST's whole body before anything else: it gets a bounded copy of it instead.
 * It parses a body sent as JSON without catching a parse error (a 500): such a body that is not
 * JSON is refused here.
 */
async function POST(req: NextRequest, context: Context) {
  let body: string;
  try {
    body = await readBoundedText(req, MAX_FORM_BYTES);
    if ((req.headers.get("content-type") ?? "").includes("application/json")) JSON.parse(body);
  } catch (e) {
    return errorResponse(e instanceof SyntaxError ? badRequest("The body is sent as JSON but is not valid JSON.") : e);
  }
  return handler(new NextRequest(req.url, { method: "POST", headers: req.headers, body }), context);
}

export { handler as GET, POST };
