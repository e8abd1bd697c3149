import { createHash, randomUUID } from "node:crypto";
import { dealRoutes } from "./hubspot-deals";
import {
  OAuthBook,
  RateLimits,
  authorizeControls,
  startStandInServer,
  testClient,
  type Reply,
  type StandInModule,
  type StandInRequest,
} from "./stand-in-server";

// Stand-in for HubSpot (hubspot): app.hubspot.com/oauth/authorize, api.hubapi.com/oauth/v1/token
// and /oauth/v1/access-tokens/<token> at their real paths, in HubSpot's wire format: form token
// requests, errors as {status: "BAD_AUTH_CODE" | "BAD_REFRESH_TOKEN" | …, message,
// correlationId}. OAuth only: the app is testClient("HUBSPOT").
// Refresh tokens: `bad_scope…` refreshes to a token granted only `oauth` (the metadata call lists
// scopes ["oauth"], which the app reports as MISSING_SCOPES); any other `bad…` is
// BAD_REFRESH_TOKEN.
//
// Read calls (the MCP tools), with a Bearer token the stand-in issued (else 401
// INVALID_AUTHENTICATION) granted crm.objects.contacts.read (else 403 MISSING_SCOPES):
// - GET /crm/v3/objects/contacts?limit&after&properties: 30 contacts derived from the portal, in ID order.
// - POST /crm/v3/objects/contacts/search {query, limit, after, properties}: those whose name,
//   email or company contains the query (case-insensitive), with `total`.
// - GET /crm/v3/objects/contacts/{contactId}[?idProperty=email][&properties=a,b]: one contact, by ID or
//   (idProperty=email) by email; none → 404 {status:"error", message:"resource not found", category:"OBJECT_NOT_FOUND"}.
// The contacts are kept per portal in memory: the reads show what the writes changed.
//
// Write calls (the operations catalogue), same token checks (HubSpot requires crm.objects.contacts.write
// for writes; the app requests only crm.objects.contacts.read today, so this stand-in asks for that):
// - POST /crm/v3/objects/contacts/batch/upsert {inputs: [{id, idProperty: "email", properties}]} (1-100):
//   updates the contact with that email or creates one, and answers 200 {status: "COMPLETE", results:
//   [{id, properties, createdAt, updatedAt, archived, new}], startedAt, completedAt}. Refusals are 400
//   {status: "error", message: "Property values were not valid: [{isValid, message, error, name, …}]",
//   category: "VALIDATION_ERROR"}: an id that is not an email (INVALID_EMAIL), a property that does not
//   exist (PROPERTY_DOESNT_EXIST), a read-only one (READ_ONLY_VALUE: hs_object_id, createdate,
//   lastmodifieddate), a lifecyclestage that is not an option (INVALID_OPTION); an idProperty other than
//   email, or no inputs → 400 VALIDATION_ERROR.
//
// Deals and companies: hubspot-deals.ts (see its header). Test control: GET /__stand-in/tokens?account=<a>
// → {tokens: [the access tokens issued for account a]}. A refresh keeps the scopes the consent
// granted (a refresh token the stand-in did not issue holds every scope of the app).

const CLIENT = testClient("HUBSPOT");
const APP_ID = 4100001;

const number = (seed: string, n: number) =>
  Number(
    BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 12)}`)
      .toString()
      .slice(0, n),
  );
const hubError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): Reply => ({
  status,
  json: { status: code, message, correlationId: randomUUID(), ...extra },
});
const errorPage = (text: string): Reply => ({ status: 400, text: `HubSpot: ${text}\n` });

/** Every scope the app asks for (what a refresh token of unknown origin is taken to hold). */
const APP_SCOPES =
  "oauth crm.objects.contacts.read crm.objects.contacts.write crm.objects.deals.read crm.objects.deals.write crm.objects.companies.read crm.objects.companies.write";

function start() {
  const book = new OAuthBook();
  const rateLimits = new RateLimits();
  /** The scopes each refresh token's consent granted. */
  const refreshScopes = new Map<string, string>();

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId)
      return errorPage("Couldn't complete the connection: the client_id is invalid.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("Couldn't complete the connection: the redirect URL doesn't match the app's redirect URLs.");
    }
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scopes.includes("oauth")) return errorPage("Couldn't complete the connection: the oauth scope is required.");
    if (!q.get("state")) return errorPage("Couldn't complete the connection: state is required.");
    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user denied access");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
      back.searchParams.set("error_description", "Internal error");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: scopes.join(" "),
        codeChallenge: null,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function token(req: StandInRequest): Reply {
    const f = req.form;
    if (f.get("client_id") !== CLIENT.clientId) return hubError(400, "BAD_CLIENT_ID", "missing or unknown client id");
    if (f.get("client_secret") !== CLIENT.clientSecret)
      return hubError(400, "BAD_CLIENT_SECRET", "missing or invalid client secret");
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error") return hubError(500, "error", "internal error");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", null);
      if (typeof redeemed === "string") {
        if (redeemed.startsWith("redirect_uri"))
          return hubError(
            400,
            "BAD_REDIRECT_URI",
            "redirect_uri does not match the redirect_uri used to create the auth code",
          );
        return hubError(400, "BAD_AUTH_CODE", "missing or unknown auth code");
      }
      refreshScopes.set(book.refreshTokenFor(redeemed.account), redeemed.scope);
      return { json: tokens(redeemed.account, redeemed.scope) };
    }
    if (grant === "refresh_token") {
      const refreshToken = f.get("refresh_token") ?? "";
      const g = book.grantOfRefreshToken(refreshToken);
      if (!g) return hubError(400, "BAD_REFRESH_TOKEN", "missing or unknown refresh token");
      return { json: tokens(g.account, g.scoped ? (refreshScopes.get(refreshToken) ?? APP_SCOPES) : "oauth") };
    }
    return hubError(400, "BAD_GRANT_TYPE", `unknown grant_type ${grant ?? ""}`);
  }

  function tokens(account: string, scope: string) {
    return {
      token_type: "bearer",
      refresh_token: book.refreshTokenFor(account),
      access_token: book.issueAccessToken(account, scope),
      expires_in: 1800,
    };
  }

  function tokenInfo(req: StandInRequest): Reply {
    const accessToken = req.params.token;
    const t = book.accessTokens.get(accessToken);
    if (!t) return hubError(404, "error", "Token not found", { category: "OBJECT_NOT_FOUND" });
    const scopes = t.scope.split(" ").filter(Boolean);
    const hubId = number(`hub:${t.account}`, 8);
    return {
      json: {
        token: accessToken,
        user: `${t.account}@example.com`,
        hub_domain: `${t.account.replace(/_/g, "-")}.example.com`,
        scopes,
        signed_access_token: {
          expiresAt: Date.now() + 1_800_000,
          scopes: scopes.join(" "),
          hubId,
          userId: number(`user:${t.account}`, 7),
          appId: APP_ID,
        },
        token_type: "access",
        user_id: number(`user:${t.account}`, 7),
        expires_in: 1800,
        hub_id: hubId,
        app_id: APP_ID,
      },
    };
  }

  /** The grant behind a CRM call, or HubSpot's refusal. */
  function crmCaller(req: StandInRequest): { account: string; scope: string } | Reply {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const t = bearer ? book.accessTokens.get(bearer) : undefined;
    if (!t) {
      return hubError(
        401,
        "error",
        "Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview",
        { category: "INVALID_AUTHENTICATION" },
      );
    }
    if (!t.scope.split(" ").includes("crm.objects.contacts.read")) {
      return hubError(
        403,
        "error",
        "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
        {
          errors: [
            {
              message: "One or more of the following scopes are required.",
              context: { requiredGranularScopes: ["crm.objects.contacts.read"] },
            },
          ],
          category: "MISSING_SCOPES",
        },
      );
    }
    return t;
  }

  type Contact = {
    id: string;
    properties: Record<string, string>;
    createdAt: string;
    updatedAt: string;
    archived: boolean;
  };
  const portals = new Map<string, Contact[]>(); // account → its contacts, in ID order

  /** The portal's contacts (30 derived from the account at first, then as the writes left them). */
  function contactsOf(account: string): Contact[] {
    if (!portals.has(account)) portals.set(account, seedContacts(account));
    return portals.get(account)!;
  }

  function seedContacts(account: string): Contact[] {
    const first = ["Ada", "Grace", "Linus", "Margaret", "Alan", "Barbara", "Ken", "Frances", "Donald", "Radia"];
    const companies = ["Acme", "Globex", "Initech", "Umbrella", "Hooli"];
    return Array.from({ length: 30 }, (_, i) => {
      const id = String(number(`contact:${account}:${i}`, 11));
      const firstname = first[i % first.length];
      const lastname = `Tester${i + 1}`;
      const company = companies[i % companies.length];
      const day = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString();
      const properties: Record<string, string> = {
        email: `${firstname.toLowerCase()}.${lastname.toLowerCase()}@${company.toLowerCase()}.example`,
        firstname,
        lastname,
        company,
        jobtitle: i % 2 ? "Marketing Manager" : "Engineer",
        phone: `+1 555 01${String(i).padStart(2, "0")}`,
        lifecyclestage: i % 3 ? "lead" : "customer",
        createdate: day,
        lastmodifieddate: day,
        hs_object_id: id,
      };
      return { id, properties, createdAt: day, updatedAt: day, archived: false };
    }).sort((a, z) => Number(a.id) - Number(z.id));
  }

  /** Only the asked properties (HubSpot always adds createdate, lastmodifieddate and hs_object_id). */
  const withProperties = (c: Contact, asked: string[]) => ({
    ...c,
    properties: Object.fromEntries(
      Object.entries(c.properties).filter(
        ([k]) => asked.includes(k) || ["createdate", "lastmodifieddate", "hs_object_id"].includes(k),
      ),
    ),
  });

  function page(all: Contact[], limit: number, after: string | null | undefined, asked: string[]) {
    const start = after ? Number(after) : 0;
    const results = all.slice(start, start + limit).map((c) => withProperties(c, asked));
    const next = start + limit < all.length ? String(start + limit) : null;
    return {
      results,
      ...(next && {
        paging: { next: { after: next, link: `https://api.hubapi.com/crm/v3/objects/contacts?after=${next}` } },
      }),
    };
  }

  function listContacts(req: StandInRequest): Reply {
    const t = crmCaller(req);
    if (!("account" in t)) return t;
    const limit = Number(req.query.get("limit") ?? 10);
    if (!(limit >= 1 && limit <= 100))
      return hubError(400, "error", "limit must be between 1 and 100", { category: "VALIDATION_ERROR" });
    const asked = (req.query.get("properties") ?? "firstname,lastname,email").split(",");
    return { json: page(contactsOf(t.account), limit, req.query.get("after"), asked) };
  }

  function searchContacts(req: StandInRequest): Reply {
    const t = crmCaller(req);
    if (!("account" in t)) return t;
    const b = (req.json ?? {}) as { query?: string; limit?: number; after?: string; properties?: string[] };
    const limit = Number(b.limit ?? 10);
    if (!(limit >= 1 && limit <= 200))
      return hubError(400, "error", "limit must be between 1 and 200", { category: "VALIDATION_ERROR" });
    const needle = (b.query ?? "").toLowerCase();
    const found = contactsOf(t.account)
      .filter(
        (c) =>
          !needle ||
          [c.properties.firstname, c.properties.lastname, c.properties.email, c.properties.company].some((v) =>
            (v ?? "").toLowerCase().includes(needle),
          ),
      )
      .reverse();
    return {
      json: { total: found.length, ...page(found, limit, b.after, b.properties ?? ["firstname", "lastname", "email"]) },
    };
  }

  function getContact(req: StandInRequest): Reply {
    const t = crmCaller(req);
    if (!("account" in t)) return t;
    const key = req.params.contactId;
    const byEmail = req.query.get("idProperty") === "email";
    const c = contactsOf(t.account).find((x) => (byEmail ? x.properties.email === key.toLowerCase() : x.id === key));
    if (!c) return hubError(404, "error", "resource not found", { category: "OBJECT_NOT_FOUND" });
    return { json: withProperties(c, (req.query.get("properties") ?? "firstname,lastname,email").split(",")) };
  }

  const WRITABLE = new Set([
    "email",
    "firstname",
    "lastname",
    "phone",
    "mobilephone",
    "company",
    "jobtitle",
    "website",
    "lifecyclestage",
    "hs_lead_status",
    "city",
    "state",
    "country",
    "zip",
    "address",
  ]);
  const READ_ONLY = new Set(["hs_object_id", "createdate", "lastmodifieddate"]);
  const LIFECYCLE = [
    "subscriber",
    "lead",
    "marketingqualifiedlead",
    "salesqualifiedlead",
    "opportunity",
    "customer",
    "evangelist",
    "other",
  ];

  /** HubSpot's answer to property values it does not take: one entry per bad value. */
  function invalidProperties(problems: { message: string; error: string; name: string }[]): Reply {
    const detail = problems.map((p) => ({
      isValid: false,
      message: p.message,
      error: p.error,
      name: p.name,
      localizedErrorMessage: p.message,
    }));
    return hubError(400, "error", `Property values were not valid: ${JSON.stringify(detail)}`, {
      category: "VALIDATION_ERROR",
    });
  }

  function upsertContacts(req: StandInRequest): Reply {
    const t = crmCaller(req);
    if (!("account" in t)) return t;
    const inputs = (req.json as { inputs?: unknown } | null)?.inputs;
    if (!Array.isArray(inputs) || inputs.length < 1 || inputs.length > 100)
      return hubError(400, "error", "inputs must hold between 1 and 100 records", { category: "VALIDATION_ERROR" });
    const startedAt = new Date().toISOString();
    const planned: { email: string; properties: Record<string, string> }[] = [];
    for (const input of inputs as { id?: unknown; idProperty?: unknown; properties?: unknown }[]) {
      if (input?.idProperty !== "email")
        return hubError(
          400,
          "error",
          `Property ${JSON.stringify(String(input?.idProperty ?? ""))} is not a unique identifier property`,
          { category: "VALIDATION_ERROR" },
        );
      const email = typeof input.id === "string" ? input.id.trim().toLowerCase() : "";
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        return invalidProperties([
          { message: `Email address ${String(input.id)} is invalid`, error: "INVALID_EMAIL", name: "email" },
        ]);
      const properties = (input.properties && typeof input.properties === "object" ? input.properties : {}) as Record<
        string,
        unknown
      >;
      const problems: { message: string; error: string; name: string }[] = [];
      for (const [name, value] of Object.entries(properties)) {
        if (READ_ONLY.has(name))
          problems.push({
            message: `${name} is a read only property; its value cannot be set.`,
            error: "READ_ONLY_VALUE",
            name,
          });
        else if (!WRITABLE.has(name))
          problems.push({ message: `Property "${name}" does not exist`, error: "PROPERTY_DOESNT_EXIST", name });
        else if (typeof value !== "string")
          problems.push({
            message: `${JSON.stringify(value)} is not a valid value for ${name}`,
            error: "INVALID_PROPERTY_VALUE",
            name,
          });
        else if (name === "lifecyclestage" && value !== "" && !LIFECYCLE.includes(value))
          problems.push({
            message: `${value} was not one of the allowed options: [${LIFECYCLE.join(", ")}]`,
            error: "INVALID_OPTION",
            name,
          });
        else if (name === "email" && value.toLowerCase() !== email)
          problems.push({
            message: `email ${value} does not match the record's id ${email}`,
            error: "INVALID_EMAIL",
            name,
          });
      }
      if (problems.length) return invalidProperties(problems);
      planned.push({ email, properties: properties as Record<string, string> });
    }
    const all = contactsOf(t.account);
    const results = planned.map(({ email, properties }) => {
      const now = new Date().toISOString();
      let c = all.find((x) => x.properties.email === email);
      const isNew = !c;
      if (!c) {
        const id = String(number(`contact:${t.account}:new:${email}`, 11));
        c = {
          id,
          properties: { email, createdate: now, lastmodifieddate: now, hs_object_id: id },
          createdAt: now,
          updatedAt: now,
          archived: false,
        };
        all.push(c);
      }
      for (const [name, value] of Object.entries(properties)) {
        if (value === "") delete c.properties[name];
        else c.properties[name] = name === "email" ? value.toLowerCase() : value;
      }
      c.properties.lastmodifieddate = now;
      c.updatedAt = now;
      return {
        id: c.id,
        properties: { ...c.properties },
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        archived: false,
        new: isNew,
      };
    });
    all.sort((a, z) => Number(a.id) - Number(z.id));
    return { json: { status: "COMPLETE", results, startedAt, completedAt: new Date().toISOString() } };
  }

  /** The grant of a token the stand-in issued, or HubSpot's 401 (scopes are the route's to check). */
  function tokenCaller(req: StandInRequest): { account: string; scope: string } | Reply {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const t = bearer ? book.accessTokens.get(bearer) : undefined;
    if (t) return t;
    return hubError(
      401,
      "error",
      "Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview",
      { category: "INVALID_AUTHENTICATION" },
    );
  }

  return startStandInServer({
    ...dealRoutes({
      caller: tokenCaller,
      throttled: (account) =>
        rateLimits.limited(account)
          ? {
              status: 429,
              json: {
                status: "error",
                message: "You have reached your secondly limit.",
                errorType: "RATE_LIMIT",
                correlationId: randomUUID(),
                policyName: "SECONDLY",
              },
              headers: { "retry-after": account.startsWith("throttled-once") ? "1" : "60" },
            }
          : null,
    }),
    // Test control: the access tokens issued for `account` (a test tells its own calls apart by them).
    "GET /__stand-in/tokens": (req) => ({
      json: {
        tokens: [...book.accessTokens].filter(([, g]) => g.account === req.query.get("account")).map(([t]) => t),
      },
    }),
    "POST /crm/v3/objects/contacts/batch/upsert": upsertContacts,
    "GET /crm/v3/objects/contacts/{contactId}": getContact,
    "GET /oauth/authorize": authorize,
    "POST /oauth/v1/token": token,
    "GET /oauth/v1/access-tokens/{token}": tokenInfo,
    "GET /crm/v3/objects/contacts": listContacts,
    "POST /crm/v3/objects/contacts/search": searchContacts,
  });
}

export const standIn: StandInModule = { types: ["hubspot"], oauthProviders: ["HUBSPOT"], start };
