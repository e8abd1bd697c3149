import { createHash, randomUUID } from "node:crypto";
import type { Reply, Route, StandInRequest } from "./stand-in-server";

// The HubSpot stand-in's deals and companies (hubspot.ts serves these routes beside the contacts),
// CRM v3 at the real paths, kept per portal in memory so reads see the writes:
// - GET /crm/v3/objects/{deals|companies}?limit&after&properties: 12 deals / 8 companies, ID order.
// - POST /crm/v3/objects/{deals|companies}/search {query, filterGroups: [{filters: [{propertyName,
//   operator: EQ, value}]}], properties, limit, after}: text query over name/domain, EQ filters, total.
// - GET /crm/v3/objects/deals/{dealId}?properties: one deal, else 404 OBJECT_NOT_FOUND.
// - POST /crm/v3/objects/deals/batch/update {inputs: [{id, properties}]}: a dealstage outside the
//   default pipeline's stages → 400 VALIDATION_ERROR "Property values were not valid: … INVALID_OPTION";
//   an unknown id → 404 OBJECT_NOT_FOUND; answers 200 {status: "COMPLETE", results}.
// - POST /crm/v3/objects/companies {properties}: 201 with the new company; no name, or a property
//   the portal does not have (PROPERTY_DOESNT_EXIST) → 400 VALIDATION_ERROR.
// Scopes: crm.objects.deals.read / .write and crm.objects.companies.read / .write as HubSpot
// requires them (403 MISSING_SCOPES naming the scope). Rate limit: an account RateLimits throttles
// → 429 {status: "error", message: "You have reached your secondly limit.", errorType: "RATE_LIMIT",
// policyName: "SECONDLY"} with Retry-After.

const COMPANY_WRITABLE = new Set([
  "name",
  "domain",
  "industry",
  "city",
  "state",
  "country",
  "zip",
  "address",
  "phone",
  "website",
  "numberofemployees",
  "lifecyclestage",
  "description",
]);
type Grant = { account: string; scope: string };
type Record_ = {
  id: string;
  properties: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
};

const STAGES = [
  "appointmentscheduled",
  "qualifiedtobuy",
  "presentationscheduled",
  "decisionmakerboughtin",
  "contractsent",
  "closedwon",
  "closedlost",
];

const number = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 14)}`)
    .toString()
    .slice(0, n);
const hubError = (status: number, message: string, extra: Record<string, unknown>): Reply => ({
  status,
  json: { status: "error", message, correlationId: randomUUID(), ...extra },
});

export function dealRoutes(kit: {
  caller(req: StandInRequest): Grant | Reply;
  throttled(account: string): Reply | null;
}): Record<string, Route> {
  const portals = new Map<string, { deals: Record_[]; companies: Record_[] }>();
  const day = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString();

  function portal(account: string) {
    let p = portals.get(account);
    if (!p) {
      const names = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Wonka"];
      const companies = names.map((name, i) => {
        const id = number(`company:${account}:${i}`, 11);
        return {
          id,
          properties: {
            name,
            domain: `${name.toLowerCase()}.example`,
            industry: i % 2 ? "COMPUTER_SOFTWARE" : "RETAIL",
            city: ["Berlin", "Austin", "London", "Paris"][i % 4],
            country: ["Germany", "United States", "United Kingdom", "France"][i % 4],
            numberofemployees: String(10 * (i + 1)),
            lifecyclestage: i % 3 ? "lead" : "customer",
            createdate: day(i),
            hs_lastmodifieddate: day(i),
            hs_object_id: id,
          },
          createdAt: day(i),
          updatedAt: day(i),
          archived: false,
        };
      });
      const deals = Array.from({ length: 12 }, (_, i) => {
        const id = number(`deal:${account}:${i}`, 11);
        return {
          id,
          properties: {
            dealname: `${names[i % names.length]} — ${["Renewal", "New business", "Upsell"][i % 3]}`,
            amount: String(1000 * (i + 1)),
            dealstage: STAGES[i % STAGES.length],
            pipeline: "default",
            closedate: day(40 + i),
            hubspot_owner_id: "75000001",
            createdate: day(i),
            hs_lastmodifieddate: day(i),
            hs_object_id: id,
          },
          createdAt: day(i),
          updatedAt: day(i),
          archived: false,
        };
      });
      const byId = (a: Record_, z: Record_) => (BigInt(a.id) < BigInt(z.id) ? -1 : 1);
      portals.set(account, (p = { deals: deals.sort(byId), companies: companies.sort(byId) }));
    }
    return p;
  }

  const ALWAYS = ["createdate", "hs_lastmodifieddate", "hs_object_id"];
  const shown = (r: Record_, asked: string[]) => ({
    ...r,
    properties: Object.fromEntries(
      Object.entries(r.properties).filter(([k]) => asked.includes(k) || ALWAYS.includes(k)),
    ),
  });

  /** The grant of a deals/companies call needing `scope`, or HubSpot's refusal (401, 403 MISSING_SCOPES, 429). */
  function allowed(req: StandInRequest, scope: string): Grant | Reply {
    const t = kit.caller(req);
    if (!("account" in t)) return t;
    if (!t.scope.split(" ").includes(scope))
      return hubError(
        403,
        "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
        {
          errors: [
            {
              message: "One or more of the following scopes are required.",
              context: { requiredGranularScopes: [scope] },
            },
          ],
          category: "MISSING_SCOPES",
        },
      );
    return kit.throttled(t.account) ?? t;
  }

  const page = (object: string, all: Record_[], limit: number, after: string | null | undefined, asked: string[]) => {
    const start = after ? Number(after) : 0;
    const next = start + limit < all.length ? String(start + limit) : null;
    return {
      results: all.slice(start, start + limit).map((r) => shown(r, asked)),
      ...(next && {
        paging: { next: { after: next, link: `https://api.hubapi.com/crm/v3/objects/${object}?after=${next}` } },
      }),
    };
  };

  function list(object: "deals" | "companies"): Route {
    return (req) => {
      const t = allowed(req, `crm.objects.${object}.read`);
      if (!("account" in t)) return t;
      const limit = Number(req.query.get("limit") ?? 10);
      if (!(limit >= 1 && limit <= 100))
        return hubError(400, "limit must be between 1 and 100", { category: "VALIDATION_ERROR" });
      const asked = (
        req.query.get("properties") ?? (object === "deals" ? "dealname,amount,dealstage" : "name,domain")
      ).split(",");
      return { json: page(object, portal(t.account)[object], limit, req.query.get("after"), asked) };
    };
  }

  function search(object: "deals" | "companies"): Route {
    return (req) => {
      const t = allowed(req, `crm.objects.${object}.read`);
      if (!("account" in t)) return t;
      const b = (req.json ?? {}) as {
        query?: string;
        filterGroups?: { filters?: { propertyName?: string; operator?: string; value?: string }[] }[];
        limit?: number;
        after?: string;
        properties?: string[];
      };
      const limit = Number(b.limit ?? 10);
      if (!(limit >= 1 && limit <= 200))
        return hubError(400, "limit must be between 1 and 200", { category: "VALIDATION_ERROR" });
      const filters = (b.filterGroups ?? []).flatMap((g) => g.filters ?? []);
      const bad = filters.find((f) => f.operator !== "EQ");
      if (bad)
        return hubError(
          400,
          `There was a problem with the request: operator ${String(bad.operator)} is not supported by the stand-in.`,
          { category: "VALIDATION_ERROR" },
        );
      const needle = (b.query ?? "").toLowerCase();
      const found = portal(t.account)
        [object].filter((r) =>
          filters.every(
            (f) => (r.properties[String(f.propertyName)] ?? "").toLowerCase() === String(f.value ?? "").toLowerCase(),
          ),
        )
        .filter((r) => !needle || Object.values(r.properties).some((v) => v.toLowerCase().includes(needle)))
        .reverse();
      return { json: { total: found.length, ...page(object, found, limit, b.after, b.properties ?? ["name"]) } };
    };
  }

  function getDeal(req: StandInRequest): Reply {
    const t = allowed(req, "crm.objects.deals.read");
    if (!("account" in t)) return t;
    const deal = portal(t.account).deals.find((d) => d.id === req.params.dealId);
    if (!deal) return hubError(404, "resource not found", { category: "OBJECT_NOT_FOUND" });
    return { json: shown(deal, (req.query.get("properties") ?? "dealname,amount,dealstage").split(",")) };
  }

  function updateDeals(req: StandInRequest): Reply {
    const t = allowed(req, "crm.objects.deals.write");
    if (!("account" in t)) return t;
    const inputs = (req.json as { inputs?: unknown } | null)?.inputs;
    if (!Array.isArray(inputs) || inputs.length < 1 || inputs.length > 100)
      return hubError(400, "inputs must hold between 1 and 100 records", { category: "VALIDATION_ERROR" });
    const deals = portal(t.account).deals;
    const planned: { deal: Record_; properties: Record<string, string> }[] = [];
    for (const input of inputs as { id?: unknown; properties?: Record<string, unknown> }[]) {
      const deal = deals.find((d) => d.id === String(input?.id ?? ""));
      if (!deal)
        return hubError(
          404,
          `Could not get some DEAL objects, they may be deleted or not exist. Check that ids are valid. (ids: ${String(input?.id)})`,
          { category: "OBJECT_NOT_FOUND" },
        );
      const properties = input.properties ?? {};
      const stage = properties.dealstage;
      if (stage !== undefined && !STAGES.includes(String(stage))) {
        const detail = [
          {
            isValid: false,
            message: `${String(stage)} was not one of the allowed options: [${STAGES.join(", ")}]`,
            error: "INVALID_OPTION",
            name: "dealstage",
          },
        ];
        return hubError(400, `Property values were not valid: ${JSON.stringify(detail)}`, {
          category: "VALIDATION_ERROR",
        });
      }
      planned.push({
        deal,
        properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, String(v)])),
      });
    }
    const startedAt = new Date().toISOString();
    const results = planned.map(({ deal, properties }) => {
      Object.assign(deal.properties, properties);
      deal.updatedAt = deal.properties.hs_lastmodifieddate = new Date().toISOString();
      return { ...deal, properties: { ...deal.properties } };
    });
    return { json: { status: "COMPLETE", results, startedAt, completedAt: new Date().toISOString() } };
  }

  function createCompany(req: StandInRequest): Reply {
    const t = allowed(req, "crm.objects.companies.write");
    if (!("account" in t)) return t;
    const properties = ((req.json as { properties?: unknown } | null)?.properties ?? {}) as Record<string, unknown>;
    if (typeof properties.name !== "string" || !properties.name.trim())
      return hubError(
        400,
        'Property values were not valid: [{"isValid":false,"message":"name is required","error":"REQUIRED_PROPERTY","name":"name"}]',
        {
          category: "VALIDATION_ERROR",
        },
      );
    const unknown = Object.keys(properties).filter((k) => !COMPANY_WRITABLE.has(k));
    if (unknown.length) {
      const detail = unknown.map((name) => ({
        isValid: false,
        message: `Property "${name}" does not exist`,
        error: "PROPERTY_DOESNT_EXIST",
        name,
      }));
      return hubError(400, `Property values were not valid: ${JSON.stringify(detail)}`, {
        category: "VALIDATION_ERROR",
      });
    }
    const companies = portal(t.account).companies;
    const now = new Date().toISOString();
    const id = number(`company:${t.account}:new:${companies.length}:${String(properties.name)}`, 11);
    const company: Record_ = {
      id,
      properties: {
        ...Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, String(v)])),
        createdate: now,
        hs_lastmodifieddate: now,
        hs_object_id: id,
      },
      createdAt: now,
      updatedAt: now,
      archived: false,
    };
    companies.push(company);
    return { status: 201, json: company };
  }

  return {
    "GET /crm/v3/objects/deals": list("deals"),
    "POST /crm/v3/objects/deals/search": search("deals"),
    "GET /crm/v3/objects/deals/{dealId}": getDeal,
    "POST /crm/v3/objects/deals/batch/update": updateDeals,
    "GET /crm/v3/objects/companies": list("companies"),
    "POST /crm/v3/objects/companies/search": search("companies"),
    "POST /crm/v3/objects/companies": createCompany,
  };
}
