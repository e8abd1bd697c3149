import { test, expect } from "../fixtures";
import { raw } from "../support/hostile";

// What `npm run fuzz` found (issue 45, "Fuzz every door"), each through the route it was found
// on: the request the fuzzer shrank it to, and the answer it must get instead.

/** Percent-escapes that do not decode to UTF-8: a lone surrogate (as CESU-8 bytes), a stray byte, a cut sequence. */
const UNDECODABLE = ["%ED%A0%80", "%FF", "%E0%A4%A", "abc%"];

test("an invite token whose escapes do not decode: the invite's own 404 or page, not the router's 500", async () => {
  for (const token of UNDECODABLE) {
    // The new-account form posts JSON.
    const json = await raw("POST", `/invite/${token}/accept`, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: "correct horse battery staple" }),
    });
    expect(json.status, `${token}: ${json.text.slice(0, 200)}`).toBe(404);
    expect(JSON.parse(json.text).detail).toBe("This invite link is not valid. Check that it was copied whole.");
    // The Join button posts a form: back to the invite page with the reason.
    const form = await raw("POST", `/invite/${token}/accept`, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(form.status, `${token}: ${form.text.slice(0, 200)}`).toBe(303);
    expect(new URL(String(form.headers.location)).searchParams.get("error")).toBe(
      "This invite link is not valid. Check that it was copied whole.",
    );
  }
});

test("a connect token whose escapes do not decode: the connect page's error, not the router's 500", async () => {
  for (const token of UNDECODABLE) {
    const res = await raw("POST", `/connect/${token}/start`, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(res.status, `${token}: ${res.text.slice(0, 200)}`).toBe(303);
    const location = new URL(String(res.headers.location));
    expect(location.pathname).toBe("/connect");
    expect(location.searchParams.get("error")).toBe("invalid_request");
  }
});

test("a docs file name whose escapes do not decode: the docs' plain 404", async () => {
  for (const file of UNDECODABLE) {
    const res = await raw("GET", `/docs/connections/${file}`);
    expect(res.status, `${file}: ${res.text.slice(0, 200)}`).toBe(404);
    expect(res.text).toMatch(/^No docs page /);
  }
});

test("next-auth's endpoints with a body sent as JSON that is not JSON: a 400 with a detail, not next-auth's 500", async () => {
  for (const action of ["signin", "callback/credentials", "signout"]) {
    const res = await raw("POST", `/api/auth/${action}`, {
      headers: { "content-type": "application/json" },
      body: "csrfToken=x&email=x&password=JM&callbackUrl=javascript%3Ax&json=true",
    });
    expect(res.status, `${action}: ${res.text.slice(0, 200)}`).toBe(400);
    expect(JSON.parse(res.text).detail).toBe("The body is sent as JSON but is not valid JSON.");
  }
  // The sign-in form (form-encoded) is untouched: a wrong password is next-auth's own answer.
  const csrf = await raw("GET", "/api/auth/csrf");
  const form = await raw("POST", "/api/auth/callback/credentials", {
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; "),
    },
    body: new URLSearchParams({
      csrfToken: JSON.parse(csrf.text).csrfToken,
      email: "nobody@example.com",
      password: "wrong",
      json: "true",
    }).toString(),
  });
  expect(form.status, form.text.slice(0, 200)).toBeLessThan(500);
  expect(form.status).not.toBe(400);
});

test("an OAuth client_id holding a NUL: Patchbay's error page and a refusal, not the database's 500", async () => {
  const page = await raw(
    "GET",
    `/oauth/authorize?${new URLSearchParams({ client_id: "\u0000", redirect_uri: "http://127.0.0.1:9/cb", response_type: "code" })}`,
  );
  expect(page.status, page.text.slice(0, 200)).toBe(200);
  expect(page.text).toContain("no client id contains");
  const consent = await raw("POST", "/oauth/consent", {
    headers: { "content-type": "application/x-www-form-urlencoded", origin: process.env.BASE_URL! },
    body: new URLSearchParams({ client_id: "abc\u0000", decision: "allow" }).toString(),
  });
  expect(consent.status, consent.text.slice(0, 200)).toBe(303);
  expect(new URL(String(consent.headers.location)).pathname).toBe("/oauth/authorize");
});

test("a consent form that is no authorization request goes back without its other fields, or is refused when too long", async () => {
  const post = (form: Record<string, string>) =>
    raw("POST", "/oauth/consent", {
      headers: { "content-type": "application/x-www-form-urlencoded", origin: process.env.BASE_URL! },
      body: new URLSearchParams(form).toString(),
    });
  // A huge field that is not a parameter of the request is not carried back.
  const big = await post({ client_id: "unknown-client", server: "x".repeat(30_000), decision: "allow" });
  expect(big.status, big.text.slice(0, 200)).toBe(303);
  const location = String(big.headers.location);
  expect(location.length).toBeLessThan(8000);
  expect(new URL(location).searchParams.get("client_id")).toBe("unknown-client");
  expect(new URL(location).searchParams.has("server")).toBe(false);
  // The request's own parameters too long to carry: a 400 that says so.
  const long = await post({ client_id: "unknown-client", state: "s".repeat(20_000), decision: "allow" });
  expect(long.status, long.text.slice(0, 200)).toBe(400);
  expect(JSON.parse(long.text).detail).toContain("too long");
});
