import { createHash } from "node:crypto";
import { anthropicRefusal, modelChatRoutes, modelKeyOf, openaiRefusal } from "./model-chat";
import {
  masked,
  RateLimits,
  startStandInServer,
  type Reply,
  type StandInModule,
  type StandInRequest,
} from "./stand-in-server";

// One stand-in for the five API-key providers, each route at its real path and in its real
// wire format. OpenAI and Anthropic share GET /v1/models and are told apart by their auth
// headers (Anthropic: x-api-key; OpenAI: Authorization: Bearer). Their model APIs (POST /v1/chat/completions,
// POST /v1/messages) replaying turns a test scripts per key: model-chat.ts.
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
// The same refusals on every route of a provider. Read calls (the MCP tools), deterministic per key:
//   Anthropic  GET /v1/models?limit=n: the first n of the models list, has_more when cut.
//   Klaviyo    GET /api/campaigns/?filter=equals(messages.channel,'email'|'sms'|'mobile_push'): 3 campaigns of
//              that channel (no or another filter → 400 "A channel filter is required"); bad_scope → campaigns:read missing.
//   Semrush    GET /?type=domain_rank&key&export_columns&domain&database: the CSV Semrush sends (header line +
//              one row, columns as asked); a domain beginning with `nothing` → "ERROR 50 :: NOTHING FOUND".
//   Stripe     GET /v1/balance: {object:"balance", available, pending} in usd (amounts derived from the key).
//   Klaviyo    GET /api/lists/{id}: {data:{type:"list", id, attributes:{name, created, updated, opt_in_process}}}. Every
//              key has three lists (IDs like "Ab3xYz" derived from the key: "Newsletter", "VIP customers",
//              "Webinar signups"; the first is in the example of each route below); another ID → 404
//              {errors:[{code:"not_found", detail:"A list with id … does not exist."}]}.
//              GET /api/lists/{id}/relationships/profiles: {data:[{type:"profile", id}]}, the list's members.
// Write calls (the operations catalogue), Klaviyo only, same refusals (scopes profiles:write, lists:write),
// routes with or without a trailing slash, kept per key in memory:
//   Klaviyo    POST /api/profile-import {data:{type:"profile", attributes:{email, first_name?, last_name?, …}}}: creates
//              (201) or updates (200) the profile with that email → {data:{type:"profile", id, attributes}}. No email,
//              phone_number or external_id, or an email that is not one → 400 {errors:[{code:"invalid",
//              source:{pointer:"/data/attributes/email"}}]}; a type other than profile → 409 conflict.
//              POST /api/lists/{id}/relationships/profiles {data:[{type:"profile", id}, …]} (1-1000): adds them to the
//              list → 204; the relationships GET then lists them. An unknown list → 404 not_found; an unknown
//              profile ID → 404 not_found naming it; a malformed body → 400 invalid.

const hash = (v: string) => createHash("sha256").update(v).digest("hex");

function openaiModels(req: StandInRequest): Reply {
  return (
    openaiRefusal(req, "api.model.read") ?? {
      json: {
        object: "list",
        data: ["gpt-4o", "gpt-4o-mini", "text-embedding-3-small"].map((id) => ({
          id,
          object: "model",
          created: 1_715_367_049,
          owned_by: "system",
        })),
      },
    }
  );
}

function anthropicModels(req: StandInRequest): Reply {
  const refusal = anthropicRefusal(req);
  if (refusal) return refusal;
  const data = [
    {
      type: "model",
      id: "claude-sonnet-4-20250514",
      display_name: "Claude Sonnet 4",
      created_at: "2025-05-22T00:00:00Z",
    },
    {
      type: "model",
      id: "claude-3-5-haiku-20241022",
      display_name: "Claude Haiku 3.5",
      created_at: "2024-10-22T00:00:00Z",
    },
  ];
  const page = data.slice(0, Math.max(1, Number(req.query.get("limit") ?? 20)));
  return {
    json: { data: page, has_more: page.length < data.length, first_id: page[0].id, last_id: page[page.length - 1].id },
  };
}

const klaviyoKey = (req: StandInRequest) =>
  /^Klaviyo-API-Key (.*)$/.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
const klaviyoError = (
  key: string,
  status: number,
  code: string,
  title: string,
  detail: string,
  pointer = "/data/",
): Reply => ({
  status,
  json: {
    errors: [
      { id: hash(`${key}/${Date.now()}`).slice(0, 36), status, code, title, detail, source: { pointer }, meta: {} },
    ],
  },
  headers: { "content-type": "application/vnd.api+json" },
});

/** Klaviyo's answer to a missing revision or a refused key (`scope` names what a bad_scope key lacks), or null. */
function klaviyoRefusal(req: StandInRequest, scope: string): Reply | null {
  const key = klaviyoKey(req);
  if (!req.headers.revision)
    return klaviyoError(key, 400, "invalid", "Invalid input.", "The 'revision' header is required.");
  if (key.startsWith("bad_scope"))
    return klaviyoError(
      key,
      403,
      "permission_denied",
      "You do not have permission to perform this action.",
      `Your API key is missing required scopes: ${scope}`,
    );
  if (!key || key.startsWith("bad"))
    return klaviyoError(
      key,
      401,
      "not_authenticated",
      "Authentication credentials were not provided.",
      "Missing or invalid private key.",
    );
  return null;
}

function klaviyoCampaigns(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "campaigns:read");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const channel = /^equals\(messages\.channel,'(email|sms|mobile_push)'\)$/.exec(req.query.get("filter") ?? "")?.[1];
  if (!channel)
    return klaviyoError(
      key,
      400,
      "invalid",
      "Invalid input.",
      "A channel filter is required: filter=equals(messages.channel,'email'), 'sms' or 'mobile_push'.",
    );
  const statuses = ["Sent", "Scheduled", "Draft"];
  const data = statuses.map((status, i) => {
    const id = hash(`${key}/${channel}/${i}`).slice(0, 26).toUpperCase();
    const created = new Date(Date.UTC(2025, 0, 20 - i * 5)).toISOString();
    return {
      type: "campaign",
      id,
      attributes: {
        name: `${channel === "email" ? "Newsletter" : "Promo"} ${3 - i}`,
        status,
        archived: false,
        send_time: status === "Sent" ? created : null,
        scheduled_at: status === "Draft" ? null : created,
        created_at: created,
        updated_at: created,
      },
      links: { self: `https://a.klaviyo.com/api/campaigns/${id}/` },
    };
  });
  return {
    json: { data, links: { self: "https://a.klaviyo.com/api/campaigns/", next: null, prev: null } },
    headers: { "content-type": "application/vnd.api+json" },
  };
}

function klaviyoAccounts(req: StandInRequest): Reply {
  const key = klaviyoKey(req);
  const id = hash(key).slice(0, 6).toUpperCase();
  const refusal = klaviyoRefusal(req, "accounts:read");
  if (refusal) return refusal;
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
              street_address: {
                address1: "1 Main St",
                address2: "",
                city: "Boston",
                region: "MA",
                country: "US",
                zip: "02110",
              },
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

// ---- Klaviyo lists and profiles (the writes), per key ----

const JSON_API = { "content-type": "application/vnd.api+json" };
const KLAVIYO_LISTS = ["Newsletter", "VIP customers", "Webinar signups"];
/** A Klaviyo-looking ID of `length` letters and digits derived from `seed` (lists: 6, profiles: 26, ULID-like). */
const klaviyoId = (seed: string, length: number) =>
  Buffer.from(createHash("sha256").update(seed).digest())
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, length);
/** The IDs of the key's three lists (tests name them: Klaviyo has no list read among the operations). */
export const klaviyoListIds = (key: string) => KLAVIYO_LISTS.map((_, i) => klaviyoId(`${key}/list/${i}`, 6));

type KlaviyoProfile = {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  created: string;
  updated: string;
};
type KlaviyoAccount = { profiles: Map<string, KlaviyoProfile>; members: Map<string, Set<string>> };
const klaviyoState = new Map<string, KlaviyoAccount>(); // key → its profiles and list members
function klaviyoStateOf(key: string): KlaviyoAccount {
  if (!klaviyoState.has(key))
    klaviyoState.set(key, {
      profiles: new Map(),
      members: new Map(klaviyoListIds(key).map((id) => [id, new Set<string>()])),
    });
  return klaviyoState.get(key)!;
}
const klaviyoNotFound = (key: string, what: string): Reply => klaviyoError(key, 404, "not_found", "Not found.", what);

function klaviyoList(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "lists:read");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const i = klaviyoListIds(key).indexOf(req.params.id);
  if (i < 0) return klaviyoNotFound(key, `A list with id ${req.params.id} does not exist.`);
  const id = req.params.id;
  return {
    json: {
      data: {
        type: "list",
        id,
        attributes: {
          name: KLAVIYO_LISTS[i],
          created: "2025-01-02T10:00:00+00:00",
          updated: "2025-01-02T10:00:00+00:00",
          opt_in_process: "single_opt_in",
        },
        links: { self: `https://a.klaviyo.com/api/lists/${id}/` },
      },
      links: { self: `https://a.klaviyo.com/api/lists/${id}/` },
    },
    headers: JSON_API,
  };
}

function klaviyoListMembers(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "lists:read");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const members = klaviyoStateOf(key).members.get(req.params.id);
  if (!members) return klaviyoNotFound(key, `A list with id ${req.params.id} does not exist.`);
  return {
    json: {
      data: [...members].map((id) => ({ type: "profile", id })),
      links: {
        self: `https://a.klaviyo.com/api/lists/${req.params.id}/relationships/profiles/`,
        next: null,
        prev: null,
      },
    },
    headers: JSON_API,
  };
}

function klaviyoProfileImport(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "profiles:write");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const data = req.json?.data;
  if (!data || typeof data !== "object" || Array.isArray(data))
    return klaviyoError(key, 400, "invalid", "Invalid input.", "The request body must hold a data object.");
  if (data.type !== "profile")
    return klaviyoError(
      key,
      409,
      "conflict",
      "Conflict.",
      `The type '${String(data.type)}' does not match the endpoint's type 'profile'.`,
    );
  const a = (data.attributes ?? {}) as {
    email?: unknown;
    phone_number?: unknown;
    external_id?: unknown;
    first_name?: unknown;
    last_name?: unknown;
  };
  const invalidEmail = (detail: string): Reply =>
    klaviyoError(key, 400, "invalid", "Invalid input.", detail, "/data/attributes/email");
  if (a.email === undefined && a.phone_number === undefined && a.external_id === undefined)
    return invalidEmail("One of email, phone_number or external_id is required to identify the profile.");
  if (typeof a.email !== "string" || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a.email))
    return invalidEmail("Invalid email address");
  const email = a.email.toLowerCase();
  const account = klaviyoStateOf(key);
  const now = new Date().toISOString().replace(/\.\d+Z$/, "+00:00");
  let profile = account.profiles.get(email);
  const created = !profile;
  if (!profile) {
    profile = {
      id: klaviyoId(`${key}/profile/${email}`, 26).toUpperCase(),
      email,
      first_name: null,
      last_name: null,
      created: now,
      updated: now,
    };
    account.profiles.set(email, profile);
  }
  if (typeof a.first_name === "string") profile.first_name = a.first_name;
  if (typeof a.last_name === "string") profile.last_name = a.last_name;
  profile.updated = now;
  const { id, ...attributes } = profile;
  return {
    status: created ? 201 : 200,
    json: { data: { type: "profile", id, attributes, links: { self: `https://a.klaviyo.com/api/profiles/${id}/` } } },
    headers: JSON_API,
  };
}

function klaviyoAddToList(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "lists:write");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const account = klaviyoStateOf(key);
  const members = account.members.get(req.params.id);
  if (!members) return klaviyoNotFound(key, `A list with id ${req.params.id} does not exist.`);
  const data = req.json?.data;
  if (
    !Array.isArray(data) ||
    data.length < 1 ||
    data.length > 1000 ||
    !data.every((d) => d && d.type === "profile" && typeof d.id === "string")
  ) {
    return klaviyoError(
      key,
      400,
      "invalid",
      "Invalid input.",
      'data must be an array of 1-1000 {"type": "profile", "id": …} objects.',
    );
  }
  const known = new Set([...account.profiles.values()].map((p) => p.id));
  const missing = data.find((d: { id: string }) => !known.has(d.id));
  if (missing) return klaviyoNotFound(key, `A profile with id ${missing.id} does not exist.`);
  for (const d of data as { id: string }[]) members.add(d.id);
  return { status: 204, text: "" };
}

/** Semrush's plain-text refusal of a key (HTTP 200, as Semrush sends it), or null. */
function semrushRefusal(key: string): Reply | null {
  if (!key) return { text: "ERROR 122 :: WRONG FORMAT OR EMPTY KEY" };
  if (key.startsWith("bad_scope")) return { text: "ERROR 130 :: API DISABLED" };
  if (key.startsWith("bad")) return { text: "ERROR 120 :: WRONG KEY - ID PAIR" };
  return null;
}

function semrushUnits(req: StandInRequest): Reply {
  const key = req.query.get("key") ?? "";
  return semrushRefusal(key) ?? { text: String(parseInt(hash(key).slice(0, 5), 16)) };
}

const SEMRUSH_HEADERS: Record<string, string> = {
  Db: "Database",
  Dn: "Domain",
  Rk: "Rank",
  Or: "Organic Keywords",
  Ot: "Organic Traffic",
  Oc: "Organic Cost",
  Ad: "Adwords Keywords",
  At: "Adwords Traffic",
  Ac: "Adwords Cost",
};

function semrushReport(req: StandInRequest): Reply {
  const q = req.query;
  const refusal = semrushRefusal(q.get("key") ?? "");
  if (refusal) return refusal;
  if (q.get("type") !== "domain_rank") return { text: "ERROR 40 :: MANDATORY PARAMETER TYPE NOT SET OR EMPTY" };
  const domain = q.get("domain") ?? "";
  if (!domain) return { text: "ERROR 41 :: MANDATORY PARAMETER DOMAIN NOT SET OR EMPTY" };
  if (domain.startsWith("nothing")) return { text: "ERROR 50 :: NOTHING FOUND" };
  const database = q.get("database") ?? "us";
  const columns = (q.get("export_columns") ?? "Db,Dn,Rk,Or,Ot,Oc,Ad,At,Ac").split(",");
  const n = (c: string) => String(parseInt(hash(`${domain}/${database}/${c}`).slice(0, 6), 16));
  const values = columns.map((c) => (c === "Db" ? database : c === "Dn" ? domain : n(c)));
  return { text: `${columns.map((c) => SEMRUSH_HEADERS[c] ?? c).join(";")}\r\n${values.join(";")}\r\n` };
}

/** Stripe's refusal of a request's key, or null; the key and account it names either way. */
function stripeCaller(
  req: StandInRequest,
  permission: string,
): { key: string; accountId: string; refusal: Reply | null } {
  const auth = String(req.headers.authorization ?? "");
  const basic = /^Basic (.+)$/.exec(auth)?.[1];
  const key =
    /^Bearer (.*)$/.exec(auth)?.[1] ?? (basic ? Buffer.from(basic, "base64").toString("utf8").split(":")[0] : "");
  const accountId = `acct_1${hash(key).slice(0, 15).toUpperCase()}`;
  const stripeMask = (k: string) => masked(k, /^(sk|rk)_(test|live)_/.exec(k)?.[0].length ?? 3);
  const error = (status: number, message: string, code?: string) => ({
    key,
    accountId,
    refusal: {
      status,
      json: {
        error: {
          message,
          type: "invalid_request_error",
          ...(code && { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}` }),
        },
      },
      headers: { "request-id": `req_${hash(key + Date.now()).slice(0, 14)}` },
    },
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
      `The provided key '${stripeMask(key)}' does not have the required permissions for this endpoint on account '${accountId}'. Having the '${permission}' permission would allow this request to continue.`,
    );
  }
  if (key.startsWith("bad_expired"))
    return error(401, `Expired API Key provided: ${stripeMask(key)}`, "api_key_expired");
  if (key.startsWith("bad")) return error(401, `Invalid API Key provided: ${stripeMask(key)}`);
  return { key, accountId, refusal: null };
}

function stripeBalance(req: StandInRequest): Reply {
  const { key, refusal } = stripeCaller(req, "rak_balance_read");
  if (refusal) return refusal;
  const amount = (seed: string) => parseInt(hash(`${key}/${seed}`).slice(0, 6), 16);
  return {
    json: {
      object: "balance",
      available: [{ amount: amount("available"), currency: "usd", source_types: { card: amount("available") } }],
      pending: [{ amount: amount("pending"), currency: "usd", source_types: { card: amount("pending") } }],
      livemode: key.startsWith("sk_live_"),
    },
  };
}

function stripeAccount(req: StandInRequest): Reply {
  const { accountId, refusal } = stripeCaller(req, "rak_accounts_kyc_basic_read");
  if (refusal) return refusal;
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

// ---- Klaviyo reports, lists, segments and unsubscribes (the depth operations), per key ----
// - POST /api/campaign-values-reports/ {data: {type: "campaign-values-report", attributes: {statistics,
//   timeframe: {key}, conversion_metric_id, filter?}}}: one result per sent campaign (email and sms),
//   equals(campaign_id,"…") honoured; a statistic Klaviyo does not know, a timeframe key outside its
//   list or a conversion metric the account does not have (its one metric is "Placed Order",
//   klaviyoMetricId(key)) → 400 invalid.
// - GET /api/lists/ and GET /api/segments/ (filter contains(name,"…")); GET /api/profiles/?filter=
//   equals(email,"…"): the profiles profile-import made.
// - POST /api/profile-subscription-bulk-delete-jobs/: 202 with no body; an unknown list → 404 not_found;
//   a profile without email → 400 invalid.
// Rate limit: a key `pk_throttled-once…` gets 429 {errors: [{status: 429, code: "throttled", …}]} with
// Retry-After 1 on its first call of these routes, `pk_throttled…` on every call (Retry-After 60).

const KLAVIYO_STATISTICS = new Set([
  "recipients",
  "delivered",
  "opens_unique",
  "open_rate",
  "clicks_unique",
  "click_rate",
  "conversions",
  "conversion_rate",
  "conversion_value",
  "revenue_per_recipient",
  "unsubscribes",
  "unsubscribe_rate",
  "bounce_rate",
  "spam_complaints",
  "opens",
  "clicks",
  "bounced",
]);
const KLAVIYO_TIMEFRAMES = new Set([
  "today",
  "yesterday",
  "last_7_days",
  "last_30_days",
  "last_90_days",
  "last_365_days",
  "this_month",
  "last_month",
  "this_year",
  "last_12_months",
  "last_week",
  "this_week",
  "last_3_months",
]);
const KLAVIYO_SEGMENTS = ["Engaged last 90 days", "Lapsed customers"];
/** The ID of the key's one metric, "Placed Order". */
const klaviyoMetricId = (key: string) => klaviyoId(`${key}/metric/placed-order`, 6);
const klaviyoLimits = new RateLimits();
const klaviyoThrottled = (key: string): Reply | null =>
  klaviyoLimits.limited(key.replace(/^pk_/, ""))
    ? {
        ...klaviyoError(
          key,
          429,
          "throttled",
          "Request was throttled.",
          "Request was throttled. Expected available in 1 second.",
        ),
        headers: { ...JSON_API, "retry-after": key.startsWith("pk_throttled-once") ? "1" : "60" },
      }
    : null;
const unsubscribed = new Map<string, { email: string; list: string | null }[]>();

function klaviyoCampaignValues(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "campaigns:read");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const limited = klaviyoThrottled(key);
  if (limited) return limited;
  const data = (req.json?.data ?? {}) as { type?: unknown; attributes?: Record<string, unknown> };
  const a = data.attributes ?? {};
  if (data.type !== "campaign-values-report")
    return klaviyoError(
      key,
      409,
      "invalid",
      "Invalid input.",
      "The type of the resource must be campaign-values-report.",
      "/data/type",
    );
  const statistics = Array.isArray(a.statistics) ? a.statistics.map(String) : [];
  const bad = statistics.find((s) => !KLAVIYO_STATISTICS.has(s));
  if (!statistics.length || bad)
    return klaviyoError(
      key,
      400,
      "invalid",
      "Invalid input.",
      `'${bad ?? ""}' is not a valid choice for statistics.`,
      "/data/attributes/statistics",
    );
  const timeframe = (a.timeframe ?? {}) as { key?: unknown };
  if (!KLAVIYO_TIMEFRAMES.has(String(timeframe.key)))
    return klaviyoError(
      key,
      400,
      "invalid",
      "Invalid input.",
      `'${String(timeframe.key)}' is not a valid timeframe key.`,
      "/data/attributes/timeframe",
    );
  if (a.conversion_metric_id !== klaviyoMetricId(key))
    return klaviyoError(
      key,
      400,
      "invalid",
      "Invalid input.",
      `Metric ${String(a.conversion_metric_id)} does not exist.`,
      "/data/attributes/conversion_metric_id",
    );
  const only = /^equals\(campaign_id,"([A-Za-z0-9]+)"\)$/.exec(String(a.filter ?? ""))?.[1];
  const results = ["email", "sms"]
    .map((channel) => ({ channel, id: hash(`${key}/${channel}/0`).slice(0, 26).toUpperCase() }))
    .filter((c) => !only || c.id === only)
    .map(({ channel, id }) => ({
      groupings: {
        send_channel: channel,
        campaign_id: id,
        campaign_message_id: hash(`${id}/message`).slice(0, 26).toUpperCase(),
      },
      statistics: Object.fromEntries(
        statistics.map((s) => {
          const n = parseInt(hash(`${id}/${s}`).slice(0, 6), 16);
          return [
            s,
            /rate|per_recipient/.test(s) ? (n % 1000) / 1000 : s === "conversion_value" ? (n % 100000) / 100 : n % 5000,
          ];
        }),
      ),
    }));
  return {
    json: {
      data: {
        type: "campaign-values-report",
        id: hash(`${key}/report/${Date.now()}`).slice(0, 36),
        attributes: { results },
        relationships: { campaigns: { data: results.map((r) => ({ type: "campaign", id: r.groupings.campaign_id })) } },
      },
      links: { self: "https://a.klaviyo.com/api/campaign-values-reports/" },
    },
    headers: JSON_API,
  };
}

function klaviyoAudiences(kind: "lists" | "segments") {
  return (req: StandInRequest): Reply => {
    const refusal = klaviyoRefusal(req, `${kind}:read`);
    if (refusal) return refusal;
    const key = klaviyoKey(req);
    const limited = klaviyoThrottled(key);
    if (limited) return limited;
    const names = kind === "lists" ? KLAVIYO_LISTS : KLAVIYO_SEGMENTS;
    const ids = kind === "lists" ? klaviyoListIds(key) : names.map((_, i) => klaviyoId(`${key}/segment/${i}`, 6));
    const filter = req.query.get("filter");
    const needle = filter ? /^contains\(name,"([^"]*)"\)$/.exec(filter)?.[1] : undefined;
    if (filter && needle === undefined)
      return klaviyoError(key, 400, "invalid", "Invalid input.", `Invalid filter provided: ${filter}`, "/filter");
    const data = names
      .map((name, i) => ({
        type: kind === "lists" ? "list" : "segment",
        id: ids[i],
        attributes: {
          name,
          created: "2025-01-02T10:00:00+00:00",
          updated: "2025-01-02T10:00:00+00:00",
          ...(kind === "segments" && { is_active: true, is_starred: i === 0 }),
        },
        links: { self: `https://a.klaviyo.com/api/${kind}/${ids[i]}/` },
      }))
      .filter((x) => needle === undefined || x.attributes.name.toLowerCase().includes(needle.toLowerCase()));
    return {
      json: { data, links: { self: `https://a.klaviyo.com/api/${kind}/`, next: null, prev: null } },
      headers: JSON_API,
    };
  };
}

function klaviyoProfiles(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "profiles:read");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const limited = klaviyoThrottled(key);
  if (limited) return limited;
  const email = /^equals\(email,"([^"]+)"\)$/.exec(req.query.get("filter") ?? "")?.[1]?.toLowerCase();
  const data = [...klaviyoStateOf(key).profiles.values()]
    .filter((p) => !email || p.email === email)
    .map((p) => ({
      type: "profile",
      id: p.id,
      attributes: { email: p.email },
      links: { self: `https://a.klaviyo.com/api/profiles/${p.id}/` },
    }));
  return {
    json: { data, links: { self: "https://a.klaviyo.com/api/profiles/", next: null, prev: null } },
    headers: JSON_API,
  };
}

function klaviyoUnsubscribe(req: StandInRequest): Reply {
  const refusal = klaviyoRefusal(req, "subscriptions:write");
  if (refusal) return refusal;
  const key = klaviyoKey(req);
  const limited = klaviyoThrottled(key);
  if (limited) return limited;
  const data = (req.json?.data ?? {}) as {
    type?: unknown;
    attributes?: { profiles?: { data?: { attributes?: { email?: unknown } }[] } };
    relationships?: { list?: { data?: { id?: unknown } } };
  };
  if (data.type !== "profile-subscription-bulk-delete-job")
    return klaviyoError(
      key,
      409,
      "invalid",
      "Invalid input.",
      "The type of the resource must be profile-subscription-bulk-delete-job.",
      "/data/type",
    );
  const profiles = data.attributes?.profiles?.data ?? [];
  if (!profiles.length || profiles.some((p) => typeof p.attributes?.email !== "string"))
    return klaviyoError(
      key,
      400,
      "invalid",
      "Invalid input.",
      "Each profile must have an email.",
      "/data/attributes/profiles",
    );
  const list = data.relationships?.list?.data?.id;
  if (list !== undefined && !klaviyoListIds(key).includes(String(list)))
    return klaviyoNotFound(key, `A list with id ${String(list)} does not exist.`);
  const done = unsubscribed.get(key) ?? [];
  for (const p of profiles)
    done.push({ email: String(p.attributes!.email), list: list === undefined ? null : String(list) });
  unsubscribed.set(key, done);
  return { status: 202, text: "" };
}

export const standIn: StandInModule = {
  types: ["openai", "anthropic", "klaviyo", "semrush", "stripe"],
  oauthProviders: [],
  start: () =>
    startStandInServer(
      {
        "GET /v1/models": (req) => (req.headers["x-api-key"] !== undefined ? anthropicModels(req) : openaiModels(req)),
        ...modelChatRoutes(),
        "GET /api/accounts/": klaviyoAccounts,
        "GET /users/countapiunits.html": semrushUnits,
        "GET /v1/account": stripeAccount,
        "GET /v1/balance": stripeBalance,
        "GET /api/campaigns/": klaviyoCampaigns,
        "GET /api/lists/{id}": klaviyoList,
        "GET /api/lists/{id}/": klaviyoList,
        "GET /api/lists/{id}/relationships/profiles": klaviyoListMembers,
        "GET /api/lists/{id}/relationships/profiles/": klaviyoListMembers,
        "POST /api/profile-import": klaviyoProfileImport,
        "POST /api/profile-import/": klaviyoProfileImport,
        "POST /api/lists/{id}/relationships/profiles": klaviyoAddToList,
        "POST /api/lists/{id}/relationships/profiles/": klaviyoAddToList,
        "POST /api/campaign-values-reports/": klaviyoCampaignValues,
        "GET /api/lists/": klaviyoAudiences("lists"),
        "GET /api/segments/": klaviyoAudiences("segments"),
        "GET /api/profiles/": klaviyoProfiles,
        "POST /api/profile-subscription-bulk-delete-jobs/": klaviyoUnsubscribe,
        "GET /": semrushReport,
      },
      // A test finds its model requests by key: /__stand-in/requests?account=<key>.
      { accountOf: modelKeyOf },
    ),
};
