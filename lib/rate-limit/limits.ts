/** One limit: at most `limit` hits per `windowMs` for each subject (`per`); 0 turns it off. */
export type RateLimitRule = { name: string; limit: number; windowMs: number; per: string };

/** A non-negative integer from the environment; anything else keeps the default, with a warning. */
function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 0) return n;
  console.warn(
    JSON.stringify({ level: "warn", msg: `${name} must be a whole number ≥ 0; using ${fallback}`, value: raw }),
  );
  return fallback;
}

const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * The limits, read from the environment once per process. The defaults are far above what the
 * dashboard, the test suite or the benchmarks send; they are there to stop a runaway client.
 */
function readRules() {
  const windowMs = Math.max(1, envInt("RATE_LIMIT_WINDOW_SECONDS", 60)) * 1000;
  return {
    apiKey: { name: "api-key", limit: envInt("RATE_LIMIT_API_PER_MINUTE", 1200), windowMs, per: "API key" },
    apiUser: { name: "api-user", limit: envInt("RATE_LIMIT_API_PER_MINUTE", 1200), windowMs, per: "signed-in user" },
    mcpToken: { name: "mcp-token", limit: envInt("RATE_LIMIT_MCP_PER_MINUTE", 600), windowMs, per: "MCP token" },
    // OAuth Dynamic Client Registration (CONTRACT §10: no fewer than 60 a minute per address).
    oauthRegister: {
      name: "oauth-register",
      limit: envInt("OAUTH_REGISTER_PER_MINUTE", 120),
      windowMs: 60_000,
      per: "client address",
    },
    // Client ID Metadata Documents fetched for the authorization endpoint (a copy still cached
    // costs nothing): each is an outbound request and a stored row, so a client address cannot
    // make the server fetch and keep documents at will.
    oauthClientMetadata: {
      name: "oauth-client-metadata",
      limit: envInt("OAUTH_CLIENT_METADATA_PER_MINUTE", 60),
      windowMs: 60_000,
      per: "client address",
    },
    // Webhook triggers (CONTRACT §13): runs a workflow's URL may start a minute.
    workflowWebhook: {
      name: "workflow-webhook",
      limit: envInt("WORKFLOW_WEBHOOK_PER_MINUTE", 60),
      windowMs: 60_000,
      per: "workflow",
    },
    // Per account and address pair: wrong passwords before each further attempt waits a growing
    // delay (lib/auth/sign-in-with-password.ts). Per client address: trying many accounts.
    signInAccount: {
      name: "sign-in-account",
      limit: envInt("SIGN_IN_RATE_LIMIT", 10),
      windowMs: SIGN_IN_WINDOW_MS,
      per: "account and client address",
    },
    signInIp: {
      name: "sign-in-ip",
      limit: envInt("SIGN_IN_IP_RATE_LIMIT", 100),
      windowMs: SIGN_IN_WINDOW_MS,
      per: "client address",
    },
  } satisfies Record<string, RateLimitRule>;
}

let rules: ReturnType<typeof readRules> | undefined;
export const rateLimits = () => (rules ??= readRules());
