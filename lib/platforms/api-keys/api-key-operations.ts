import "server-only";
import { z } from "zod";
import { providerFetch } from "@/lib/platforms/kit/provider-fetch";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import {
  apiKeyHeaders,
  errorObjectReason,
  nonsense,
  refuseOrUnavailable,
  semrushTextOrThrow,
} from "@/lib/platforms/api-keys/api-key-providers";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { numeric, isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";
import { apiKeyTypes } from "@/lib/platforms/api-keys/api-key-providers";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(apiKeyTypes, type);

// One read per API-key provider; the key is the connection's only credential field.

type Json = Record<string, unknown>;
const keyOf = ({ credentials }: OperationContext, field: string) =>
  credentials.kind === "manual" ? (credentials.credentials[field] ?? "") : credentials.tokens.accessToken;

const openaiListModels = defineRead({
  toolName: "openai_list_models",
  title: "List OpenAI models",
  consent: "See which models your key can use",
  description: "The models this OpenAI API key can use (GET /v1/models): ID, owner and creation date, sorted by ID.",
  types: ["openai"],
  id: "openai.list_models",
  credits: 1,
  cacheTtlSeconds: 3600,
  example: {},
  input: {},
  output: {
    models: z
      .array(
        z.object({
          id: z.string().nullable().describe("Model ID, e.g. gpt-4o"),
          owned_by: z.string().nullable().describe("Owner"),
          created: z.string().nullable().describe("Created on"),
        }),
      )
      .describe("Models, by ID"),
  },
  async run(ctx) {
    const res = await providerFetch("OpenAI", hosted(ctx.connection.type), "https://api.openai.com/v1/models", {
      headers: apiKeyHeaders.openai(keyOf(ctx, "api_key")),
    });
    if (res.status !== 200) refuseOrUnavailable("OpenAI", res, errorObjectReason);
    const data = (res.body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) nonsense("OpenAI", "GET /v1/models", res);
    const models = data.filter(isObject).map((m) => ({
      id: m.id ?? null,
      owned_by: m.owned_by ?? null,
      created: typeof m.created === "number" ? new Date(m.created * 1000).toISOString().slice(0, 10) : null,
    }));
    return { models: models.sort((a, b) => String(a.id).localeCompare(String(b.id))) };
  },
});

const anthropicListModels = defineRead({
  toolName: "anthropic_list_models",
  title: "List Anthropic models",
  consent: "See which models your key can use",
  description:
    "The Claude models this Anthropic API key can use (GET /v1/models), newest first: ID, display name, release date.",
  types: ["anthropic"],
  id: "anthropic.list_models",
  credits: 1,
  cacheTtlSeconds: 3600,
  example: {},
  input: {
    limit: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(100)
      .describe("How many models to return at most (1-1000, default 100)."),
  },
  output: {
    models: z
      .array(
        z.object({
          id: z.string().nullable().describe("Model ID"),
          display_name: z.string().nullable().describe("Model name"),
          created_at: z.string().nullable().describe("Released at"),
        }),
      )
      .describe("Models, newest first"),
    has_more: z.boolean().describe("More models than were returned"),
  },
  async run(ctx, args) {
    const res = await providerFetch(
      "Anthropic",
      hosted(ctx.connection.type),
      urlWith("https://api.anthropic.com/v1/models", { limit: String(args.limit) }),
      {
        headers: apiKeyHeaders.anthropic(keyOf(ctx, "api_key")),
      },
    );
    if (res.status !== 200) refuseOrUnavailable("Anthropic", res);
    const body = res.body as { data?: unknown; has_more?: unknown } | null;
    if (!Array.isArray(body?.data)) nonsense("Anthropic", "GET /v1/models", res);
    return {
      models: body.data
        .filter(isObject)
        .map((m) => ({ id: m.id ?? null, display_name: m.display_name ?? null, created_at: m.created_at ?? null })),
      has_more: body.has_more === true,
    };
  },
});

const klaviyoListCampaigns = defineRead({
  toolName: "klaviyo_list_campaigns",
  title: "List Klaviyo campaigns",
  consent: "Read your campaigns",
  description:
    "The account's Klaviyo campaigns of one channel (GET /api/campaigns), newest first: ID, name, status (Draft, Scheduled, Sent …), send and schedule times. Page with `cursor` (the previous answer's next_cursor).",
  types: ["klaviyo"],
  id: "klaviyo.list_campaigns",
  credits: 1,
  cacheTtlSeconds: 300,
  example: { channel: "email" },
  input: {
    channel: z
      .enum(["email", "sms", "mobile_push"])
      .default("email")
      .describe("Which campaigns: email (default), sms or mobile_push; Klaviyo requires one channel per call."),
    cursor: z.string().max(500).optional().describe("next_cursor of the previous page, to continue."),
  },
  output: {
    campaigns: z
      .array(
        z.object({
          id: z.string().nullable().describe("Campaign ID"),
          name: z.string().nullable().describe("Campaign"),
          status: z.string().nullable().describe("Status, e.g. Sent, Scheduled or Draft"),
          archived: z.boolean().nullable().describe("Archived"),
          send_time: z.string().nullable().describe("Sent at"),
          scheduled_at: z.string().nullable().describe("Scheduled at"),
          created_at: z.string().nullable().describe("Created at"),
          updated_at: z.string().nullable().describe("Updated at"),
        }),
      )
      .describe("Campaigns, newest first"),
    next_cursor: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run(ctx, args) {
    const url = urlWith("https://a.klaviyo.com/api/campaigns/", {
      filter: `equals(messages.channel,'${args.channel}')`,
      sort: "-created_at",
      "fields[campaign]": "name,status,archived,send_time,scheduled_at,created_at,updated_at",
      "page[cursor]": args.cursor,
    });
    const res = await providerFetch("Klaviyo", hosted(ctx.connection.type), url, {
      headers: apiKeyHeaders.klaviyo(keyOf(ctx, "private_api_key")),
    });
    if (res.status !== 200) refuseOrUnavailable("Klaviyo", res);
    const body = res.body as { data?: unknown; links?: { next?: unknown } } | null;
    if (!Array.isArray(body?.data)) nonsense("Klaviyo", "GET /api/campaigns/", res);
    const next =
      typeof body.links?.next === "string" ? new URL(body.links.next).searchParams.get("page[cursor]") : null;
    return {
      campaigns: body.data.filter(isObject).map((c) => {
        const a = isObject(c.attributes) ? c.attributes : {};
        return {
          id: c.id ?? null,
          name: a.name ?? null,
          status: a.status ?? null,
          archived: a.archived ?? null,
          send_time: a.send_time ?? null,
          scheduled_at: a.scheduled_at ?? null,
          created_at: a.created_at ?? null,
          updated_at: a.updated_at ?? null,
        };
      }),
      next_cursor: next,
    };
  },
});

/** Semrush's report columns (export_columns codes) and the names the answer is keyed by. */
const SEMRUSH_COLUMNS = {
  Db: "database",
  Dn: "domain",
  Rk: "rank",
  Or: "organic_keywords",
  Ot: "organic_traffic",
  Oc: "organic_cost_usd",
  Ad: "adwords_keywords",
  At: "adwords_traffic",
  Ac: "adwords_cost_usd",
} as const;

const semrushDomainOverview = defineRead({
  toolName: "semrush_domain_overview",
  title: "Semrush domain overview",
  consent: "Look up domain overviews, spending your API units",
  description:
    "A domain's search visibility in one Semrush regional database (domain_rank report): Semrush rank, organic keywords, estimated organic traffic and its cost, and the same for paid (Google Ads) search. " +
    "Costs Semrush API units (10 per call). found=false when Semrush has no data for the domain.",
  types: ["semrush"],
  id: "semrush.domain_overview",
  credits: 5,
  cacheTtlSeconds: 3600,
  example: { domain: "example.com", database: "us" },
  input: {
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .transform((v) => v.replace(/^https?:\/\//, "").replace(/\/.*$/, ""))
      .pipe(z.string().regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/, "must be a domain like example.com"))
      .describe("The domain, e.g. example.com (a URL is reduced to its host)."),
    database: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]{2})?$/, "must be a Semrush database code like us, uk, de")
      .default("us")
      .describe("The regional database: us (default), uk, de, fr, ca, au …"),
  },
  output: {
    found: z.boolean().describe("Semrush has data on the domain"),
    domain: z.string().optional().describe("Domain"),
    database: z.string().optional().describe("Database (country), e.g. us"),
    rank: z.number().optional().describe("Semrush rank"),
    organic_keywords: z.number().optional().describe("Organic keywords"),
    organic_traffic: z.number().optional().describe("Organic traffic (visits a month)"),
    organic_cost_usd: z.number().optional().describe("Organic traffic value (USD)"),
    adwords_keywords: z.number().optional().describe("Paid keywords"),
    adwords_traffic: z.number().optional().describe("Paid traffic (visits a month)"),
    adwords_cost_usd: z.number().optional().describe("Paid traffic cost (USD)"),
  },
  async run(ctx, args) {
    const url = urlWith("https://api.semrush.com/", {
      type: "domain_rank",
      key: keyOf(ctx, "api_key"),
      export_columns: Object.keys(SEMRUSH_COLUMNS).join(","),
      domain: args.domain,
      database: args.database,
    });
    const res = await providerFetch("Semrush", hosted(ctx.connection.type), url);
    // "ERROR 50 :: NOTHING FOUND" is an answer, not a refusal: the domain has no data there.
    if (/^ERROR 50 ::/.test(res.text.trim())) return { domain: args.domain, database: args.database, found: false };
    const [header, values] = semrushTextOrThrow(res).split(/\r?\n/);
    if (!header || !values)
      throw new ProviderUnavailable(
        "Semrush",
        `Semrush domain_rank answered an unexpected body: ${res.text.slice(0, 200)}`,
      );
    const names = Object.values(SEMRUSH_COLUMNS);
    const cells = values.split(";");
    return {
      found: true,
      ...Object.fromEntries(
        names.map((n, i) => [n, n === "domain" || n === "database" ? cells[i] : numeric(cells[i])]),
      ),
    };
  },
});

/** Currencies Stripe counts in whole units (no cents). */
const ZERO_DECIMAL = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);

/** stripeAmounts' answer, one per currency. */
const stripeAmount = z.object({
  currency: z.string().describe("Currency, e.g. usd"),
  amount: z.number().describe("Amount"),
  amount_minor: z.number().describe("Amount in the currency's smallest unit (cents)"),
});

function stripeAmounts(v: unknown) {
  return (Array.isArray(v) ? v : []).filter(isObject).map((b) => {
    const currency = String(b.currency ?? "");
    const minor = typeof b.amount === "number" ? b.amount : 0;
    return { currency, amount: ZERO_DECIMAL.has(currency) ? minor : minor / 100, amount_minor: minor };
  });
}

const stripeGetBalance = defineRead({
  toolName: "stripe_get_balance",
  title: "Stripe balance",
  consent: "Read your account balance",
  description:
    "The Stripe account's balance (GET /v1/balance): funds available for payout and pending, per currency, in major units (amount) and Stripe's minor units (amount_minor).",
  types: ["stripe"],
  id: "stripe.get_balance",
  credits: 1,
  cacheTtlSeconds: 60,
  example: {},
  input: {},
  output: {
    available: z.array(stripeAmount).describe("Available balance, per currency"),
    pending: z.array(stripeAmount).describe("Pending balance, per currency"),
    livemode: z.boolean().describe("Live mode (not test mode)"),
  },
  async run(ctx) {
    const res = await providerFetch("Stripe", hosted(ctx.connection.type), "https://api.stripe.com/v1/balance", {
      headers: apiKeyHeaders.stripe(keyOf(ctx, "secret_key")),
    });
    if (res.status !== 200) refuseOrUnavailable("Stripe", res, errorObjectReason);
    const body = res.body as Json | null;
    if (body?.object !== "balance") nonsense("Stripe", "GET /v1/balance", res);
    return {
      available: stripeAmounts(body.available),
      pending: stripeAmounts(body.pending),
      livemode: body.livemode === true,
    };
  },
});

export const operations: Operation[] = [
  openaiListModels,
  anthropicListModels,
  klaviyoListCampaigns,
  semrushDomainOverview,
  stripeGetBalance,
];
