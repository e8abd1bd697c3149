import { expect, type APIRequestContext } from "@playwright/test";
import { baseURL } from "../fixtures";
import { requestContext } from "./request-context";

/**
 * A dashboard session over plain HTTP (next-auth's credentials sign-in), for API tests of the
 * /api/dashboard routes: the cookie stays in the context and every request names the team.
 */
export async function sessionAs(
  email: string,
  password: string,
  teamId: string,
  base = baseURL(),
): Promise<APIRequestContext> {
  const ctx = await requestContext({ baseURL: base, extraHTTPHeaders: { "x-patchbay-team": teamId } });
  const { csrfToken } = await (await ctx.get("/api/auth/csrf")).json();
  const res = await ctx.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
    maxRedirects: 0,
  });
  expect([200, 302], await res.text()).toContain(res.status());
  const state = await ctx.storageState();
  expect(
    state.cookies.map((c) => c.name).some((n) => n.includes("session-token")),
    `signed in as ${email}`,
  ).toBe(true);
  return ctx;
}
