import "server-only";
import { z } from "zod";
import { hubspotApiCall, hubspotGetOrNull } from "@/lib/platforms/hubspot/hubspot-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation, OperationConnection } from "@/lib/platforms/kit/operation-types";
import type { FreshCredentials } from "@/lib/platforms/kit/types";

// HubSpot deals and companies (CRM v3 objects): the pipeline a marketer reports on and moves, and
// the companies deals belong to.

const API = "https://api.hubapi.com/crm/v3/objects";
const DEAL_PROPERTIES = ["dealname", "amount", "dealstage", "pipeline", "closedate", "hubspot_owner_id", "createdate"];
const COMPANY_PROPERTIES = ["name", "domain", "industry", "city", "country", "numberofemployees", "lifecyclestage"];

type Json = Record<string, unknown>;
const portal = (c: OperationConnection) => c.name ?? c.externalId ?? c.id;

const propertyName = z
  .string()
  .regex(/^[a-z0-9_]+$/, "is not a HubSpot property name")
  .max(100);
const objectId = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, `must be a numeric HubSpot ${what} ID`);
const limit = z
  .number()
  .int()
  .min(1)
  .max(100)
  .default(50)
  .describe("How many to return at most (1-100, HubSpot's page limit; default 50).");
const after = z.string().max(200).optional().describe("next_after of the previous page, to continue.");

/** The list (GET) or search (POST …/search) answer as {id, …properties}, with the next page's cursor. */
function records(body: Json, properties: string[]) {
  const results = (Array.isArray(body.results) ? body.results : []).filter(isObject).map((r) => ({
    id: r.id ?? null,
    ...Object.fromEntries(properties.map((p) => [p, isObject(r.properties) ? (r.properties[p] ?? null) : null])),
  }));
  const next = isObject(body.paging) && isObject(body.paging.next) ? body.paging.next.after : undefined;
  return {
    ...(typeof body.total === "number" && { total: body.total }),
    results,
    next_after: typeof next === "string" ? next : null,
  };
}

/** List (ID order) or, with filters or a query, search (most recently modified first) one object type. */
async function listOrSearch(
  type: string,
  credentials: FreshCredentials,
  object: "deals" | "companies",
  args: { query?: string; filters: Json[]; properties: string[]; limit: number; after?: string },
) {
  if (args.query || args.filters.length) {
    // https://developers.hubspot.com/docs/api-reference/search/guide
    return hubspotApiCall(type, `${API}/${object}/search`, credentials, `the ${object} search`, {
      ...(args.query && { query: args.query }),
      ...(args.filters.length && { filterGroups: [{ filters: args.filters }] }),
      properties: args.properties,
      sorts: [{ propertyName: "hs_lastmodifieddate", direction: "DESCENDING" }],
      limit: args.limit,
      ...(args.after && { after: args.after }),
    });
  }
  return hubspotApiCall(
    type,
    urlWith(`${API}/${object}`, {
      limit: String(args.limit),
      properties: args.properties.join(","),
      archived: "false",
      after: args.after,
    }),
    credentials,
    `the ${object} list`,
  );
}

const listDeals = defineRead({
  id: "hubspot.deals.list",
  title: "List or search HubSpot deals",
  consent: "Read the deals in your CRM",
  description:
    "Deals from the HubSpot CRM (CRM v3 objects/deals): ID and properties (deal name, amount, deal stage, pipeline, close date, owner … by default), the sales pipeline and its opportunities. " +
    "Filter by deal stage or pipeline (internal IDs, e.g. closedwon, appointmentscheduled) or search text; page with `after` (the previous answer's next_after).",
  types: ["hubspot"],
  credits: 2,
  cacheTtlSeconds: 60,
  example: { dealstage: "closedwon", limit: 20 },
  input: {
    query: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .optional()
      .describe("Search text over the deals' default text properties."),
    dealstage: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe("Only deals in this stage (its internal ID, e.g. closedwon, contractsent)."),
    pipeline: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe("Only deals of this pipeline (internal ID, e.g. default)."),
    properties: z
      .array(propertyName)
      .min(1)
      .max(50)
      .default(DEAL_PROPERTIES)
      .describe(`Deal properties to return (internal names; default ${DEAL_PROPERTIES.join(", ")}).`),
    limit,
    after,
  },
  output: {
    total: z.number().optional().describe("Deals matching (searches and filters only)"),
    deals: z
      .array(
        z
          .object({
            id: z.string().nullable().describe("Deal ID"),
            dealname: z.string().nullable().optional().describe("Deal name"),
            amount: z.string().nullable().optional().describe("Amount"),
            dealstage: z.string().nullable().optional().describe("Deal stage, e.g. closedwon"),
            pipeline: z.string().nullable().optional().describe("Pipeline"),
            closedate: z.string().nullable().optional().describe("Close date"),
            hubspot_owner_id: z.string().nullable().optional().describe("Owner ID"),
            createdate: z.string().nullable().optional().describe("Created at"),
          })
          .catchall(z.string().nullable()),
      )
      .describe(
        "Deals: the ID and the properties asked for, by internal name (the default properties unless others are asked for)",
      ),
    next_after: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const filters: Json[] = [];
    if (args.dealstage) filters.push({ propertyName: "dealstage", operator: "EQ", value: args.dealstage });
    if (args.pipeline) filters.push({ propertyName: "pipeline", operator: "EQ", value: args.pipeline });
    const body = await listOrSearch(connection.type, credentials, "deals", { ...args, filters });
    const { results, ...rest } = records(body, args.properties);
    return { ...rest, deals: results };
  },
});

const listCompanies = defineRead({
  id: "hubspot.companies.list",
  title: "List or search HubSpot companies",
  consent: "Read the companies in your CRM",
  description:
    "Companies (accounts, organisations) from the HubSpot CRM (CRM v3 objects/companies): ID and properties (name, domain, industry, city, country, employees, lifecycle stage … by default). " +
    "Search by name or domain text; page with `after` (the previous answer's next_after).",
  types: ["hubspot"],
  credits: 2,
  cacheTtlSeconds: 60,
  example: { query: "acme", limit: 10 },
  input: {
    query: z.string().trim().min(1).max(300).optional().describe("Search text (matches name, domain, website, phone)."),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "must be a domain like example.com")
      .optional()
      .describe("Only the company with this exact domain, e.g. acme.com."),
    properties: z
      .array(propertyName)
      .min(1)
      .max(50)
      .default(COMPANY_PROPERTIES)
      .describe(`Company properties to return (internal names; default ${COMPANY_PROPERTIES.join(", ")}).`),
    limit,
    after,
  },
  output: {
    total: z.number().optional().describe("Companies matching (searches only)"),
    companies: z
      .array(
        z
          .object({
            id: z.string().nullable().describe("Company ID"),
            name: z.string().nullable().optional().describe("Company name"),
            domain: z.string().nullable().optional().describe("Domain"),
            industry: z.string().nullable().optional().describe("Industry"),
            city: z.string().nullable().optional().describe("City"),
            country: z.string().nullable().optional().describe("Country"),
            numberofemployees: z.string().nullable().optional().describe("Employees"),
            lifecyclestage: z.string().nullable().optional().describe("Lifecycle stage"),
          })
          .catchall(z.string().nullable()),
      )
      .describe(
        "Companies: the ID and the properties asked for, by internal name (the default properties unless others are asked for)",
      ),
    next_after: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const filters = args.domain ? [{ propertyName: "domain", operator: "EQ", value: args.domain }] : [];
    const body = await listOrSearch(connection.type, credentials, "companies", { ...args, filters });
    const { results, ...rest } = records(body, args.properties);
    return { ...rest, companies: results };
  },
});

const moveDeal = defineWrite({
  id: "hubspot.deal.update_stage",
  idempotent: true,
  title: "Move a HubSpot deal to another stage",
  consent: "Update deals and move them between stages",
  description:
    "Moves one HubSpot deal to another pipeline stage (sets its dealstage, CRM v3 deals batch/update), e.g. to closedwon or closedlost: advance, win, lose or update a deal; optionally sets its amount and close date too. " +
    "Stage values are the pipeline's internal stage IDs (appointmentscheduled, qualifiedtobuy, presentationscheduled, decisionmakerboughtin, contractsent, closedwon, closedlost in the default pipeline). Returns the deal's name and new stage.",
  types: ["hubspot"],
  credits: 1,
  example: { deal_id: "12345678901", dealstage: "closedwon", amount: "1500" },
  input: {
    deal_id: objectId("deal").describe("The deal's ID (hs_object_id), e.g. 12345678901."),
    dealstage: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9_-]+$/, "must be a deal stage's internal ID")
      .describe("The stage to move the deal to (internal ID, e.g. closedwon)."),
    amount: z
      .string()
      .regex(/^\d+(\.\d{1,2})?$/, "must be an amount like 1500 or 1500.50")
      .optional()
      .describe('The deal\'s new amount, e.g. "1500" (leave out to keep it).'),
    closedate: z.iso.date().optional().describe("The deal's close date, YYYY-MM-DD (leave out to keep it)."),
  },
  summarize(args, connection, before) {
    const deal = isObject(before) ? before : {};
    const name = typeof deal.dealname === "string" ? ` '${deal.dealname}'` : "";
    const from = typeof deal.dealstage === "string" ? ` from ${deal.dealstage}` : "";
    const extra = [args.amount && `amount ${args.amount}`, args.closedate && `close date ${args.closedate}`].filter(
      Boolean,
    );
    return `Move HubSpot deal ${args.deal_id}${name}${from} to ${args.dealstage}${extra.length ? ` and set ${extra.join(", ")}` : ""} in portal ${portal(connection)}`;
  },
  async before({ connection, credentials }, args) {
    // https://developers.hubspot.com/docs/api-reference/crm-deals-v3/basic/get-crm-v3-objects-deals-dealId
    const found = await hubspotGetOrNull(
      connection.type,
      urlWith(`${API}/deals/${args.deal_id}`, { properties: "dealname,dealstage,pipeline,amount,closedate" }),
      credentials,
      "the deal read",
    );
    if (!found) throw new ProviderRejection("HubSpot", `OBJECT_NOT_FOUND: the portal has no deal ${args.deal_id}.`);
    const p = isObject(found.properties) ? found.properties : {};
    return {
      deal_id: args.deal_id,
      dealname: p.dealname ?? null,
      dealstage: p.dealstage ?? null,
      pipeline: p.pipeline ?? null,
      amount: p.amount ?? null,
      closedate: p.closedate ?? null,
    };
  },
  output: {
    deal_id: z.string().describe("Deal ID"),
    dealname: z.string().nullable().describe("Deal name"),
    dealstage: z.string().describe("Deal stage now"),
    pipeline: z.string().nullable().describe("Pipeline"),
    amount: z.string().nullable().describe("Amount"),
    closedate: z.string().nullable().describe("Close date"),
    updated_at: z.string().nullable().describe("Updated at"),
  },
  async run({ connection, credentials }, args) {
    const properties = {
      dealstage: args.dealstage,
      ...(args.amount && { amount: args.amount }),
      ...(args.closedate && { closedate: args.closedate }),
    };
    // https://developers.hubspot.com/docs/api-reference/crm-deals-v3/batch/post-crm-v3-objects-deals-batch-update
    const body = await hubspotApiCall(
      connection.type,
      `${API}/deals/batch/update`,
      credentials,
      "the deals batch update",
      {
        inputs: [{ id: args.deal_id, properties }],
      },
    );
    const result = (Array.isArray(body.results) ? body.results : []).find(isObject);
    if (!result)
      throw new ProviderUnavailable(
        "HubSpot",
        `HubSpot answered the deals batch update without a result (status ${String(body.status ?? "none")}).`,
      );
    const p = isObject(result.properties) ? result.properties : {};
    return {
      deal_id: String(result.id ?? args.deal_id),
      dealname: p.dealname ?? null,
      dealstage: p.dealstage ?? args.dealstage,
      pipeline: p.pipeline ?? null,
      amount: p.amount ?? null,
      closedate: p.closedate ?? null,
      updated_at: result.updatedAt ?? null,
    };
  },
});

const createCompany = defineWrite({
  id: "hubspot.company.create",
  additive: true,
  idempotent: false,
  title: "Create a HubSpot company",
  consent: "Create companies",
  description:
    "Creates a company (account, organisation) in the HubSpot CRM (CRM v3 objects/companies): add a new company with its name and domain, and optionally industry, city, country, phone, website and lifecycle stage. " +
    "HubSpot does not stop two companies having the same domain; the approval shows a company that already has it. Returns the new company's ID and properties.",
  types: ["hubspot"],
  credits: 1,
  example: { name: "Acme Inc.", domain: "acme.com", properties: { industry: "COMPUTER_SOFTWARE", city: "Berlin" } },
  input: {
    name: z.string().trim().min(1).max(255).describe("The company's name."),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "must be a domain like acme.com")
      .optional()
      .describe("The company's website domain, e.g. acme.com."),
    properties: z
      .record(
        z
          .string()
          .regex(/^[a-z0-9_]{1,100}$/, "is not a HubSpot property name (internal names are lowercase, e.g. city)"),
        z.string().max(65_536),
      )
      .refine((p) => Object.keys(p).length <= 100, "at most 100 properties")
      .refine((p) => !("name" in p) && !("domain" in p), "name and domain are given as their own fields")
      .default({})
      .describe(
        "Other company properties by internal name, each a string: industry, city, country, phone, website, numberofemployees, lifecyclestage …",
      ),
  },
  summarize(args, connection, before) {
    const existing = isObject(before) && isObject(before.existing) ? before.existing : null;
    const warn = existing
      ? ` (company ${String(existing.id)} '${String(existing.name ?? "")}' already has this domain)`
      : "";
    return `Create HubSpot company '${args.name}'${args.domain ? ` (${args.domain})` : ""} in portal ${portal(connection)}${warn}`;
  },
  async before({ connection, credentials }, args) {
    if (!args.domain) return { existing: null };
    const body = await listOrSearch(connection.type, credentials, "companies", {
      filters: [{ propertyName: "domain", operator: "EQ", value: args.domain }],
      properties: ["name", "domain"],
      limit: 1,
    });
    const [first] = records(body, ["name", "domain"]).results;
    return { existing: first ?? null };
  },
  output: {
    id: z.string().describe("Company ID"),
    name: z.string().describe("Company name"),
    domain: z.string().nullable().describe("Domain"),
    properties: z
      .record(z.string(), z.string().nullable())
      .describe("The other properties written, by internal name, as HubSpot now holds them"),
    created_at: z.string().nullable().describe("Created at"),
  },
  async run({ connection, credentials }, args) {
    // https://developers.hubspot.com/docs/api-reference/crm-companies-v3/basic/post-crm-v3-objects-companies
    const body = await hubspotApiCall(connection.type, `${API}/companies`, credentials, "the company create", {
      properties: { name: args.name, ...(args.domain && { domain: args.domain }), ...args.properties },
    });
    const p = isObject(body.properties) ? body.properties : {};
    return {
      id: String(body.id ?? ""),
      name: p.name ?? args.name,
      domain: p.domain ?? args.domain ?? null,
      properties: Object.fromEntries(Object.keys(args.properties).map((k) => [k, p[k] ?? null])),
      created_at: body.createdAt ?? null,
    };
  },
});

export const operations: Operation[] = [listDeals, listCompanies, moveDeal, createCompany];
