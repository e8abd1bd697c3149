import { createHash } from "node:crypto";
import { startStandInServer, type Reply, type StandInModule, type StandInRequest } from "./stand-in-server";

// One stand-in for the five API-key providers, each route at its real path and in its real
// wire format. OpenAI and Anthropic share GET /v1/models and are told apart by their auth
// headers (Anthropic: x-api-key; OpenAI: Authorization: Bearer).
//
// Any key works except:
//   OpenAI     `bad_scope…` → 403 {error:{message:"You have insufficient permissions for this operation. Missing scopes: api.model.read. …", type:"invalid_request_error", code:null}}
//              other `bad…` → 401 {error:{message:"Incorrect API key provided: … You can find your API key at https://platform.openai.com/account/api-keys.", type:"invalid_request_error", param:null, code:"invalid_api_key"}}
//   Anthropic  `bad_scope…` → 403 {type:"error", error:{type:"permission_error", message:"Your API key does not have permission to use the specified resource."}}
//              other `bad…` → 401 {type:"error", error:{type:"authentication_error", message:"invalid x-api-key"}}
//   Klaviyo    `bad_scope…` → 403 {errors:[{code:"permission_denied", title:"You do not have permission to perform this action.", detail:"Your API key is missing required scopes: accounts:read"}]}
//              other `bad…` → 401 {errors:[{code:"not_authenticated", title:"Authentication credentials were not provided.", detail:"Missing or invalid private key."}]}
//   Semrush    `bad_scope…` → 200 text "ERROR 130 :: API DISABLED"
//              other `bad…` → 200 text "ERROR 120 :: WRONG KEY - ID PAIR"
//   Stripe     `bad_scope…` → 403 {error:{message:"The provided key '…' does not have the required permissions for this endpoint on account 'acct_…'. Having the 'rak_accounts_kyc_basic_read' permission would allow this request to continue.", type:"invalid_request_error"}}
//              `bad_expired…` → 401 {error:{message:"Expired API Key provided: …", type:"invalid_request_error", code:"api_key_expired"}}
//              other `bad…` → 401 {error:{message:"Invalid API Key provided: …", type:"invalid_request_error"}}

const hash = (v: string) => createHash("sha256").update(v).digest("hex");

/** How providers echo a key back: a recognisable start and end, never the whole key. */
function masked(key: string, keepStart = 3): string {
  if (key.length < 12) return "*".repeat(Math.max(key.length, 4));
  return `${key.slice(0, keepStart)}${"*".repeat(key.length - keepStart - 4)}${key.slice(-4)}`;
}

function openaiModels(req: StandInRequest): Reply {
  const key = /^Bearer (.*)$/.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
  const error = (status: number, message: string, code: string | null): Reply => ({ status, json: { error: { message, type: "invalid_request_error", param: null, code } } });
  if (!key) {
    return error(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.", null);
  }
  if (key.startsWith("bad_scope")) {
    return error(
      403,
      "You have insufficient permissions for this operation. Missing scopes: api.model.read. Check that you have the correct role in your organization (Reader, Writer, Owner) and project (Member, Owner), and if you're using a restricted API key, that it has the necessary scopes.",
      null,
    );
  }
  if (key.startsWith("bad")) return error(401, `Incorrect API key provided: ${masked(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`, "invalid_api_key");
  return {
    json: {
      object: "list",
      data: ["gpt-4o", "gpt-4o-mini", "text-embedding-3-small"].map((id) => ({ id, object: "model", created: 1_715_367_049, owned_by: "system" })),
    },
  };
}

function anthropicModels(req: StandInRequest): Reply {
  const key = String(req.headers["x-api-key"] ?? "");
  const error = (status: number, type: string, message: string): Reply => ({ status, json: { type: "error", error: { type, message } }, headers: { "request-id": `req_${hash(key + Date.now()).slice(0, 24)}` } });
  if (!req.headers["anthropic-version"]) return error(400, "invalid_request_error", "anthropic-version: header is required");
  if (!key) return error(401, "authentication_error", "x-api-key header is required");
  if (key.startsWith("bad_scope")) return error(403, "permission_error", "Your API key does not have permission to use the specified resource.");
  if (key.startsWith("bad")) return error(401, "authentication_error", "invalid x-api-key");
  const data = [
    { type: "model", id: "claude-sonnet-4-20250514", display_name: "Claude Sonnet 4", created_at: "2025-05-22T00:00:00Z" },
    { type: "model", id: "claude-3-5-haiku-20241022", display_name: "Claude Haiku 3.5", created_at: "2024-10-22T00:00:00Z" },
  ];
  return { json: { data, has_more: false, first_id: data[0].id, last_id: data[data.length - 1].id } };
}

function klaviyoAccounts(req: StandInRequest): Reply {
  const key = /^Klaviyo-API-Key (.*)$/.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
  const id = hash(key).slice(0, 6).toUpperCase();
  const error = (status: number, code: string, title: string, detail: string): Reply => ({
    status,
    json: { errors: [{ id: hash(`${key}/${Date.now()}`).slice(0, 36), status, code, title, detail, source: { pointer: "/data/" }, meta: {} }] },
    headers: { "content-type": "application/vnd.api+json" },
  });
  if (!req.headers.revision) return error(400, "invalid", "Invalid input.", "The 'revision' header is required.");
  if (key.startsWith("bad_scope")) return error(403, "permission_denied", "You do not have permission to perform this action.", "Your API key is missing required scopes: accounts:read");
  if (!key || key.startsWith("bad")) return error(401, "not_authenticated", "Authentication credentials were not provided.", "Missing or invalid private key.");
  return {
    json: {
      data: [
        {
          type: "account",
          id,
          attributes: {
            test_account: false,
            contact_information: {
              default_sender_name: "Acme",
              default_sender_email: "hello@acme.example",
              website_url: "https://acme.example",
              organization_name: `Acme ${id}`,
              street_address: { address1: "1 Main St", address2: "", city: "Boston", region: "MA", country: "US", zip: "02110" },
            },
            industry: "Retail",
            timezone: "America/New_York",
            preferred_currency: "USD",
            public_api_key: id,
            locale: "en-US",
          },
          links: { self: `https://a.klaviyo.com/api/accounts/${id}/` },
        },
      ],
      links: { self: "https://a.klaviyo.com/api/accounts/", next: null, prev: null },
    },
    headers: { "content-type": "application/vnd.api+json" },
  };
}

function semrushUnits(req: StandInRequest): Reply {
  const key = req.query.get("key") ?? "";
  if (!key) return { text: "ERROR 122 :: WRONG FORMAT OR EMPTY KEY" };
  if (key.startsWith("bad_scope")) return { text: "ERROR 130 :: API DISABLED" };
  if (key.startsWith("bad")) return { text: "ERROR 120 :: WRONG KEY - ID PAIR" };
  return { text: String(parseInt(hash(key).slice(0, 5), 16)) };
}

function stripeAccount(req: StandInRequest): Reply {
  const auth = String(req.headers.authorization ?? "");
  const basic = /^Basic (.+)$/.exec(auth)?.[1];
  const key = /^Bearer (.*)$/.exec(auth)?.[1] ?? (basic ? Buffer.from(basic, "base64").toString("utf8").split(":")[0] : "");
  const accountId = `acct_1${hash(key).slice(0, 15).toUpperCase()}`;
  const stripeMask = (k: string) => masked(k, /^(sk|rk)_(test|live)_/.exec(k)?.[0].length ?? 3);
  const error = (status: number, message: string, code?: string): Reply => ({
    status,
    json: { error: { message, type: "invalid_request_error", ...(code && { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}` }) } },
    headers: { "request-id": `req_${hash(key + Date.now()).slice(0, 14)}` },
  });
  if (!key) {
    return error(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  if (key.startsWith("bad_scope")) {
    return error(
      403,
      `The provided key '${stripeMask(key)}' does not have the required permissions for this endpoint on account '${accountId}'. Having the 'rak_accounts_kyc_basic_read' permission would allow this request to continue.`,
    );
  }
  if (key.startsWith("bad_expired")) return error(401, `Expired API Key provided: ${stripeMask(key)}`, "api_key_expired");
  if (key.startsWith("bad")) return error(401, `Invalid API Key provided: ${stripeMask(key)}`);
  return {
    json: {
      id: accountId,
      object: "account",
      business_profile: { name: "Acme Inc", url: "https://acme.example", support_email: null },
      charges_enabled: true,
      payouts_enabled: true,
      country: "US",
      default_currency: "usd",
      details_submitted: true,
      email: "billing@acme.example",
      settings: { dashboard: { display_name: `Acme ${accountId.slice(-4)}`, timezone: "America/New_York" } },
      type: "standard",
    },
  };
}

export const standIn: StandInModule = {
  types: ["openai", "anthropic", "klaviyo", "semrush", "stripe"],
  oauthProviders: [],
  start: () =>
    startStandInServer({
      "GET /v1/models": (req) => (req.headers["x-api-key"] !== undefined ? anthropicModels(req) : openaiModels(req)),
      "GET /api/accounts/": klaviyoAccounts,
      "GET /users/countapiunits.html": semrushUnits,
      "GET /v1/account": stripeAccount,
    }),
};
