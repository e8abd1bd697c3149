import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { chromium, expect, type Browser, type Page } from "@playwright/test";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { baseURL } from "../fixtures";
import { CHROMIUM_ARGS } from "./chromium";
import { PASSWORD } from "./browser";

// The client side of CONTRACT §10 for the tests: an OAuthClientProvider for the official SDK's
// own OAuth support (it keeps what the SDK hands it, as a real client's storage would), PKCE,
// raw token and consent requests for the refusals the SDK would never send, an https server for
// Client ID Metadata Documents, and Chromium for the consent page.

/** What the SDK asks a client to keep; `authorizationUrl` is where it sent the person. */
export class TestClientProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  clientMetadataUrl?: string;

  constructor(
    readonly redirectUrl: string,
    readonly name: string,
    metadataUrl?: string,
  ) {
    this.clientMetadataUrl = metadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [this.redirectUrl],
      client_name: this.name,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * The native client's side of a loopback redirect (RFC 8252 §7.3): a listener on 127.0.0.1 that
 * keeps every URL the browser is sent back to. Started once per worker.
 */
let receiver: { port: number; hits: string[] } | null = null;
export async function startCallbackReceiver() {
  if (receiver) return;
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("Back in the client; you can close this tab.");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  server.unref();
  receiver = { port: (server.address() as AddressInfo).port, hits };
}

let callbacks = 0;
/** A loopback redirect URI of its own (the receiver's, when one runs). */
export const loopbackRedirect = () =>
  `http://127.0.0.1:${receiver?.port ?? 9}/callback-${process.pid}-${++callbacks}-${randomBytes(3).toString("hex")}`;

export async function register(body: object) {
  const res = await fetch(new URL("/oauth/register", baseURL()), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** POST /oauth/token (form-encoded) on `base`. */
export async function tokenRequest(
  form: Record<string, string>,
  base = baseURL(),
  headers: Record<string, string> = {},
) {
  const res = await fetch(new URL("/oauth/token", base), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: await res.json() };
}

export async function revoke(token: string, base = baseURL()) {
  const res = await fetch(new URL("/oauth/revoke", base), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
  return res.status;
}

/** tools/list on /mcp with `token`: the status and, on 401, the challenge. */
export async function mcpStatus(token: string, base = baseURL()) {
  const res = await fetch(new URL("/mcp", base), {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await res.text();
  return { status: res.status, challenge: res.headers.get("www-authenticate") };
}

export function authorizeUrl(params: Record<string, string | undefined>, base = baseURL()) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ response_type: "code", code_challenge_method: "S256", ...params }))
    if (v !== undefined) q.set(k, v);
  return new URL(`/oauth/authorize?${q}`, base).toString();
}

/** An https server answering every GET with `document()` (a Client ID Metadata Document). */
export async function startDocumentServer(document: (url: string) => { status?: number; body: string }) {
  const tls = join(__dirname, "tls");
  const hits: string[] = [];
  const server = https.createServer(
    { key: readFileSync(join(tls, "key.pem")), cert: readFileSync(join(tls, "cert.pem")) },
    (req, res) => {
      hits.push(req.url ?? "");
      const d = document(req.url ?? "");
      res.writeHead(d.status ?? 200, { "content-type": "application/json", "cache-control": "max-age=300" });
      res.end(d.body);
    },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Signs `page` in with the sign-in form (the consent page sends a signed-out visitor there). */
export async function signInOn(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Opens `url` (an authorization request) in `page`, signs in when asked, clicks `button` on the
 * consent page and returns the URL the browser was sent back to (the receiver's).
 */
export async function consentInBrowser(
  page: Page,
  url: string,
  redirectUri: string,
  email: string,
  button: "Allow" | "Deny" = "Allow",
  before?: (page: Page) => Promise<void>,
) {
  await page.goto(url);
  if (new URL(page.url()).pathname === "/sign-in") {
    await signInOn(page, email);
    await page.waitForURL(/\/oauth\/authorize/);
  }
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Allow");
  await before?.(page);
  await page.getByRole("button", { name: button, exact: true }).click();
  const path = new URL(redirectUri).pathname;
  const hit = () => receiver?.hits.find((h) => h.startsWith(`${path}?`)) ?? null;
  await expect.poll(hit, { timeout: 15_000 }).not.toBeNull();
  return new URL(hit()!, redirectUri);
}
