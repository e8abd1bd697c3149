import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";

/** Where the embedded database, generated secrets and demo credentials live. */
export const dataDir = resolve(
  /*turbopackIgnore: true*/ process.env.DATA_DIR ?? join(/*turbopackIgnore: true*/ process.cwd(), "data"),
);

export function port(): number {
  return Number(process.env.PORT ?? 3000);
}

/** The spec's {base_url}: auth-link URLs, OAuth callbacks, the MCP address. */
export function appUrl(): string {
  return (process.env.APP_URL ?? `http://localhost:${port()}`).replace(/\/+$/, "");
}

/**
 * MCP_ALLOWED_ORIGINS: the browser origins (comma separated, like `https://app.example`) besides
 * APP_URL's own whose pages may call /mcp; their hosts are accepted as `Host` too. An entry that
 * is not an http(s) origin is ignored, with a warning.
 */
export function mcpAllowedOrigins(): string[] {
  const raw = process.env.MCP_ALLOWED_ORIGINS ?? "";
  if (raw === allowedOrigins?.raw) return allowedOrigins.list;
  const list: string[] = [];
  for (const entry of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    const bare = url && url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    if (url && bare && (url.protocol === "http:" || url.protocol === "https:")) list.push(url.origin);
    else
      console.warn(
        JSON.stringify({
          level: "warn",
          msg: "MCP_ALLOWED_ORIGINS: not an origin (scheme://host[:port]); ignored",
          value: entry,
        }),
      );
  }
  allowedOrigins = { raw, list };
  return list;
}
let allowedOrigins: { raw: string; list: string[] } | undefined;

/** `${APP_URL}/oauth/callback`: the one redirect URI to register with every provider's OAuth app. */
export const oauthRedirectUri = () => `${appUrl()}/oauth/callback`;

/** Production mode refuses to invent secrets; everything else (demo, dev, tests) may. */
export function isProductionMode(): boolean {
  return process.env.APP_ENV === "production";
}

export function sandboxProvidersEnabled(): boolean {
  const v = process.env.SANDBOX_PROVIDERS;
  if (v === undefined || v === "") return !isProductionMode();
  return v === "1" || v === "true";
}

export type Secrets = { encryptionKey: string; authSecret: string };

const secretsFile = () => join(dataDir, "secrets.json");

/**
 * ENCRYPTION_KEY and AUTH_SECRET from the environment; outside production mode, missing ones
 * are generated once into ./data/secrets.json so a demo restart can still read its data.
 */
export function loadSecrets(): Secrets {
  // An empty variable counts as unset, never as an empty key.
  const fromEnv = {
    encryptionKey: process.env.ENCRYPTION_KEY || undefined,
    authSecret: process.env.AUTH_SECRET || undefined,
  };
  if (fromEnv.encryptionKey && fromEnv.authSecret) return fromEnv as Secrets;
  if (isProductionMode()) {
    const missing = [!fromEnv.encryptionKey && "ENCRYPTION_KEY", !fromEnv.authSecret && "AUTH_SECRET"].filter(Boolean);
    throw new Error(`Production mode (APP_ENV=production) needs ${missing.join(" and ")} in the environment.`);
  }
  let stored: Partial<Secrets> = {};
  if (existsSync(secretsFile())) stored = JSON.parse(readFileSync(secretsFile(), "utf8")) as Partial<Secrets>;
  const secrets: Secrets = {
    encryptionKey: fromEnv.encryptionKey || stored.encryptionKey || randomBytes(32).toString("base64"),
    authSecret: fromEnv.authSecret || stored.authSecret || randomBytes(32).toString("base64url"),
  };
  const generated = (!fromEnv.encryptionKey && !stored.encryptionKey) || (!fromEnv.authSecret && !stored.authSecret);
  if (generated) {
    mkdirSync(dirname(secretsFile()), { recursive: true });
    writeFileSync(secretsFile(), JSON.stringify({ ...stored, ...secrets }, null, 2), { mode: 0o600 });
  }
  return secrets;
}

let cached: Secrets | undefined;
export function secrets(): Secrets {
  return (cached ??= loadSecrets());
}
