import { createHash, randomBytes } from "node:crypto";
import type { Reply, Route, StandInRequest } from "./stand-in-server";
import type { GoogleKit } from "./google";

// The Google stand-in's routes for the week-to-week operations (google.ts serves them beside its own):
//
// Google Ads (state per customer, kept with google.ts's campaigns; auth, developer token and 999…
// customers refused as for the search; every call of an RATE-LIMITED account (RateLimits) → 429
// RESOURCE_EXHAUSTED with Retry-After):
// - googleAds:search FROM ad_group | keyword_view | search_term_view | campaign_criterion (google.ts
//   hands these over): every campaign has two ad groups "Core terms" and "Long tail" (ids
//   digits("<customer>/adGroup/<campaign index>/<j>", 11), ENABLED), each with two keywords and three
//   search terms; campaign_criterion holds the negative keywords the writes added. WHERE `field = value`
//   conditions are honoured (segments.* ignored), ORDER BY metrics.<m> DESC, LIMIT (at most 1000). A
//   field the resource does not have → 400 queryError UNRECOGNIZED_FIELD. A search term a negative
//   keyword of its campaign contains reads status EXCLUDED.
// - POST /v18/customers/{id}/adGroups:mutate: update operations, updateMask status (ENABLED, PAUSED),
//   errors as campaigns:mutate (RESOURCE_NOT_FOUND, FIELD_MASK_MISSING, RESOURCE_NAME_MALFORMED …).
// - POST /v18/customers/{id}/campaignCriteria:mutate: create operations {campaign, negative: true,
//   keyword: {text, matchType}}; an unknown campaign → mutateError RESOURCE_NOT_FOUND; a keyword of
//   more than 80 characters → criterionError KEYWORD_TEXT_TOO_LONG; a match type outside
//   EXACT/PHRASE/BROAD → 400 Invalid value; negative not true → campaignCriterionError
//   CANNOT_TARGET_KEYWORD... (positive keywords belong to ad groups).
// GA4 Data API (analytics.readonly):
// - POST /v1beta/properties/{id}:runRealtimeReport: realtime metrics activeUsers, screenPageViews,
//   eventCount, conversions, keyEvents and dimensions country, city, deviceCategory, unifiedScreenName,
//   eventName, minutesAgo, platform; another name → 400 "Field x is not a valid metric/dimension";
//   minuteRanges startMinutesAgo above 29 → 400 INVALID_ARGUMENT (a standard property keeps 30 minutes).
// - GET /v1beta/properties/{id}/metadata: the stand-in's schema plus one custom dimension.
// Search Console (webmasters.readonly or webmasters):
// - POST /v1/urlInspection/index:inspect {inspectionUrl, siteUrl}: a URL outside the property → 403
//   PERMISSION_DENIED "You do not own this site, or the inspected URL is not part of this property.";
//   a path containing "noindex" reads "Excluded by 'noindex' tag", anything else "Submitted and indexed".
// - GET /webmasters/v3/sites/{site}/sitemaps: /sitemap.xml (an index) and /post-sitemap.xml.

type Row = Record<string, unknown>;
export type AdsAdGroup = { id: string; campaignId: string; name: string; status: string };
export type AdsNegative = { id: string; campaignId: string; text: string; matchType: string };
/** What google.ts's Ads account holds for this module. */
export type AdsDepthAccount = {
  campaigns: { id: string; name: string; status: string }[];
  adGroups: AdsAdGroup[];
  negatives: AdsNegative[];
};

const hashInt = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export const DEPTH_RESOURCES = new Set(["ad_group", "keyword_view", "search_term_view", "campaign_criterion"]);
const KEYWORDS = [
  ["running shoes", "BROAD"],
  ["trail running shoes", "PHRASE"],
] as const;
const SEARCH_TERMS = ["running shoes sale", "free running shoes", "running shoes jobs"];

/** The ad groups of each campaign, made when the account is. */
export function seedAdGroups(customer: string, campaigns: { id: string }[]): AdsAdGroup[] {
  return campaigns.flatMap((c, i) =>
    ["Core terms", "Long tail"].map((name, j) => ({
      id: kitDigits(`${customer}/adGroup/${i}/${j}`, 11),
      campaignId: c.id,
      name,
      status: "ENABLED",
    })),
  );
}

/** The same digits() as google.ts (kept here so the seed needs no kit). */
function kitDigits(seed: string, n: number) {
  return BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
}

const METRICS = ["impressions", "clicks", "cost_micros", "conversions", "ctr"];

function metricsOf(seed: string): Row {
  const impressions = 200 + hashInt(`${seed}/i`, 5000);
  const clicks = hashInt(`${seed}/c`, Math.floor(impressions / 4));
  return {
    "metrics.impressions": String(impressions),
    "metrics.clicks": String(clicks),
    "metrics.cost_micros": String(clicks * (100_000 + hashInt(`${seed}/m`, 90) * 10_000)),
    "metrics.conversions": hashInt(`${seed}/v`, 20),
    "metrics.ctr": impressions ? clicks / impressions : 0,
  };
}

/** Every row of a depth resource as flat "resource.field" → value (snake_case, as GAQL names them). */
function entities(customer: string, account: AdsDepthAccount, resource: string): Row[] {
  const campaign = (id: string) => account.campaigns.find((c) => c.id === id)!;
  const groupFields = (g: AdsAdGroup): Row => ({
    "ad_group.id": g.id,
    "ad_group.name": g.name,
    "ad_group.status": g.status,
    "ad_group.resource_name": `customers/${customer}/adGroups/${g.id}`,
    "campaign.id": g.campaignId,
    "campaign.name": campaign(g.campaignId).name,
    "campaign.status": campaign(g.campaignId).status,
  });
  if (resource === "ad_group") return account.adGroups.map((g) => ({ ...groupFields(g), ...metricsOf(`ag/${g.id}`) }));
  if (resource === "keyword_view")
    return account.adGroups.flatMap((g, gi) =>
      KEYWORDS.map(([text, matchType], k) => {
        const id = kitDigits(`${g.id}/keyword/${k}`, 12);
        return {
          ...groupFields(g),
          "keyword_view.resource_name": `customers/${customer}/keywordViews/${g.id}~${id}`,
          "ad_group_criterion.criterion_id": id,
          "ad_group_criterion.keyword.text": gi % 2 ? `${text} women` : text,
          "ad_group_criterion.keyword.match_type": matchType,
          "ad_group_criterion.status": "ENABLED",
          "ad_group_criterion.quality_info.quality_score": 3 + hashInt(`qs/${id}`, 8),
          ...metricsOf(`kw/${id}`),
        };
      }),
    );
  if (resource === "search_term_view")
    return account.adGroups.flatMap((g) =>
      SEARCH_TERMS.map((term) => {
        const excluded = account.negatives.some(
          (n) => n.campaignId === g.campaignId && term.toLowerCase().includes(n.text.toLowerCase()),
        );
        return {
          ...groupFields(g),
          "search_term_view.resource_name": `customers/${customer}/searchTermViews/${g.campaignId}~${g.id}~${Buffer.from(term).toString("base64url")}`,
          "search_term_view.search_term": term,
          "search_term_view.status": excluded ? "EXCLUDED" : "NONE",
          ...metricsOf(`st/${g.id}/${term}`),
        };
      }),
    );
  // campaign_criterion: the negative keywords the writes added.
  return account.negatives.map((n) => ({
    "campaign_criterion.resource_name": `customers/${customer}/campaignCriteria/${n.campaignId}~${n.id}`,
    "campaign_criterion.criterion_id": n.id,
    "campaign_criterion.negative": true,
    "campaign_criterion.type": "KEYWORD",
    "campaign_criterion.keyword.text": n.text,
    "campaign_criterion.keyword.match_type": n.matchType,
    "campaign.id": n.campaignId,
    "campaign.name": campaign(n.campaignId).name,
  }));
}

/** Sets `value` at a GAQL path in a JSON row (camelCase segments, nested objects). */
function put(row: Record<string, Row>, path: string, value: unknown) {
  const parts = path.split(".").map(camel);
  let at: Row = row;
  for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Row;
  at[parts[parts.length - 1]] = value;
}

/** GoogleAdsService.Search of a depth resource: the stored state, GAQL's WHERE / ORDER BY / LIMIT applied. */
export function depthSearch(
  kit: GoogleKit,
  customer: string,
  account: AdsDepthAccount,
  resource: string,
  fields: string[],
  rest: string,
): Reply {
  const all = entities(customer, account, resource);
  const known = new Set([
    ...Object.keys(all[0] ?? entities(customer, sample(account), resource)[0] ?? {}),
    ...METRICS.map((m) => `metrics.${m}`),
  ]);
  const unknown = fields.find((f) => !known.has(f) && !f.startsWith("segments."));
  if (unknown)
    return adsQueryError(
      kit,
      { queryError: "UNRECOGNIZED_FIELD" },
      `Error in SELECT clause: unrecognized field '${unknown}' for resource '${resource}'.`,
    );
  const where = /\bwhere\b([\s\S]*?)(\border\s+by\b|\blimit\b|$)/i.exec(rest)?.[1] ?? "";
  const conditions = [...where.matchAll(/([a-z_.]+)\s*=\s*('([^']*)'|"([^"]*)"|[\w.-]+)/gi)]
    .filter((m) => !m[1].startsWith("segments."))
    .map((m) => ({ field: m[1], value: m[3] ?? m[4] ?? m[2] }));
  const order = /\border\s+by\s+metrics\.(\w+)\s*(desc|asc)?/i.exec(rest);
  const limit = Math.min(Number(/\blimit\s+(\d+)/i.exec(rest)?.[1] ?? 1000), 1000);
  let rows = all.filter((e) =>
    conditions.every((c) => String(e[c.field]).toLowerCase() === String(c.value).toLowerCase()),
  );
  if (order) {
    const key = `metrics.${order[1]}`;
    const sign = (order[2] ?? "asc").toLowerCase() === "desc" ? -1 : 1;
    rows = [...rows].sort((a, z) => sign * (Number(a[key]) - Number(z[key])));
  }
  const results = rows.slice(0, limit).map((e) => {
    const row: Record<string, Row> = { [camel(resource)]: { resourceName: e[`${resource}.resource_name`] ?? null } };
    for (const f of fields) if (!f.startsWith("segments.")) put(row, f, e[f]);
    return row;
  });
  return {
    json: {
      ...(results.length && { results }),
      fieldMask: fields.map((f) => f.split(".").map(camel).join(".")).join(","),
      requestId: randomBytes(11).toString("base64url"),
    },
  };
}

/** An account with one of everything, so an empty resource still knows its fields. */
function sample(account: AdsDepthAccount): AdsDepthAccount {
  const c = account.campaigns[0];
  return { ...account, negatives: [{ id: "1", campaignId: c.id, text: "x", matchType: "EXACT" }] };
}

const adsQueryError = (kit: GoogleKit, errorCode: Record<string, string>, message: string, fieldPath?: unknown[]) =>
  kit.apiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", [
    {
      "@type": "type.googleapis.com/google.ads.googleads.v18.errors.GoogleAdsFailure",
      errors: [{ errorCode, message, ...(fieldPath && { location: { fieldPathElements: fieldPath } }) }],
      requestId: randomBytes(11).toString("base64url"),
    },
  ]);

/**
 * The routes of this module. `ads` gives an Ads call's refusal (token, scope, developer token,
 * customer) or null, and the customer's account.
 */
export function depthRoutes(
  kit: GoogleKit,
  ads: { refusal(req: StandInRequest, method: string): Reply | null; account(customer: string): AdsDepthAccount },
  scopes: { analytics: string; searchConsole: string },
): Record<string, Route> {
  const throttledAds = (req: StandInRequest) => kit.throttled(kit.bearer(req)!.account, "googleads.googleapis.com");

  function adGroupsMutate(req: StandInRequest): Reply {
    const refusal = ads.refusal(req, "AdGroupService.MutateAdGroups");
    if (refusal) return refusal;
    const limited = throttledAds(req);
    if (limited) return limited;
    const customer = req.params.customer;
    const account = ads.account(customer);
    const body = (req.json ?? {}) as { operations?: unknown; validateOnly?: unknown; responseContentType?: unknown };
    if (!Array.isArray(body.operations) || !body.operations.length)
      return adsQueryError(kit, { fieldError: "REQUIRED" }, "The required field was not present.", [
        { fieldName: "operations" },
      ]);
    const changes: { group: AdsAdGroup; status: string; resourceName: string }[] = [];
    for (const [index, raw] of (body.operations as unknown[]).entries()) {
      const at = (...rest: unknown[]) => [{ fieldName: "operations", index }, ...rest];
      const op = (raw && typeof raw === "object" ? raw : {}) as {
        update?: Record<string, unknown>;
        updateMask?: unknown;
      };
      if (!op.update)
        return adsQueryError(
          kit,
          { requestError: "OPERATION_REQUIRED" },
          "Mutate operations must have 'create', 'update', or 'remove' specified.",
          at(),
        );
      const resourceName = String(op.update.resourceName ?? "");
      const m = /^customers\/(\d+)\/adGroups\/(\d+)$/.exec(resourceName);
      if (!m)
        return adsQueryError(
          kit,
          { requestError: "RESOURCE_NAME_MALFORMED" },
          `Resource name '${resourceName}' is malformed: expected 'customers/{customer_id}/adGroups/{ad_group_id}'.`,
          at({ fieldName: "update" }, { fieldName: "resource_name" }),
        );
      const group = m[1] === customer ? account.adGroups.find((g) => g.id === m[2]) : undefined;
      if (!group)
        return adsQueryError(
          kit,
          { mutateError: "RESOURCE_NOT_FOUND" },
          "Resource was not found.",
          at({ fieldName: "update" }, { fieldName: "resource_name" }),
        );
      if (op.updateMask !== "status")
        return adsQueryError(
          kit,
          {
            fieldMaskError:
              typeof op.updateMask === "string" && op.updateMask ? "FIELD_NOT_FOUND" : "FIELD_MASK_MISSING",
          },
          "The field mask must be provided for update operations and name only fields the stand-in updates (status).",
          at({ fieldName: "update_mask" }),
        );
      const status = op.update.status;
      if (typeof status !== "string" || !["ENABLED", "PAUSED"].includes(status))
        return kit.apiError(
          400,
          "INVALID_ARGUMENT",
          `Invalid value at 'operations[${index}].update.status' (type.googleapis.com/google.ads.googleads.v18.enums.AdGroupStatusEnum.AdGroupStatus), ${JSON.stringify(status ?? null)}`,
        );
      changes.push({ group, status, resourceName });
    }
    if (body.validateOnly === true) return { json: {} };
    for (const c of changes) c.group.status = c.status;
    const mutable = body.responseContentType === "MUTABLE_RESOURCE";
    return {
      json: {
        results: changes.map(({ group, resourceName }) => ({
          resourceName,
          ...(mutable && {
            adGroup: {
              resourceName,
              id: group.id,
              name: group.name,
              status: group.status,
              campaign: `customers/${customer}/campaigns/${group.campaignId}`,
            },
          }),
        })),
      },
    };
  }

  function campaignCriteriaMutate(req: StandInRequest): Reply {
    const refusal = ads.refusal(req, "CampaignCriterionService.MutateCampaignCriteria");
    if (refusal) return refusal;
    const limited = throttledAds(req);
    if (limited) return limited;
    const customer = req.params.customer;
    const account = ads.account(customer);
    const body = (req.json ?? {}) as { operations?: unknown; validateOnly?: unknown; responseContentType?: unknown };
    if (!Array.isArray(body.operations) || !body.operations.length)
      return adsQueryError(kit, { fieldError: "REQUIRED" }, "The required field was not present.", [
        { fieldName: "operations" },
      ]);
    const planned: AdsNegative[] = [];
    for (const [index, raw] of (body.operations as unknown[]).entries()) {
      const at = (...rest: unknown[]) => [{ fieldName: "operations", index }, { fieldName: "create" }, ...rest];
      const op = (raw && typeof raw === "object" ? raw : {}) as { create?: Record<string, unknown>; remove?: unknown };
      if (op.remove !== undefined)
        return kit.apiError(501, "UNIMPLEMENTED", "The stand-in implements create operations only.");
      if (!op.create)
        return adsQueryError(
          kit,
          { requestError: "OPERATION_REQUIRED" },
          "Mutate operations must have 'create', 'update', or 'remove' specified.",
          [{ fieldName: "operations", index }],
        );
      const c = op.create;
      const m = /^customers\/(\d+)\/campaigns\/(\d+)$/.exec(String(c.campaign ?? ""));
      if (!m)
        return adsQueryError(
          kit,
          { requestError: "RESOURCE_NAME_MALFORMED" },
          `Resource name '${String(c.campaign ?? "")}' is malformed.`,
          at({ fieldName: "campaign" }),
        );
      if (m[1] !== customer || !account.campaigns.some((x) => x.id === m[2]))
        return adsQueryError(
          kit,
          { mutateError: "RESOURCE_NOT_FOUND" },
          "Resource was not found.",
          at({ fieldName: "campaign" }),
        );
      const keyword = (c.keyword && typeof c.keyword === "object" ? c.keyword : {}) as {
        text?: unknown;
        matchType?: unknown;
      };
      if (c.negative !== true)
        return adsQueryError(
          kit,
          { campaignCriterionError: "CANNOT_SET_NEGATIVE_KEYWORD_THEMES" },
          "Positive keywords are added to ad groups; a campaign criterion keyword must be negative.",
          at({ fieldName: "negative" }),
        );
      const text = typeof keyword.text === "string" ? keyword.text.trim() : "";
      if (!text)
        return adsQueryError(
          kit,
          { criterionError: "KEYWORD_TEXT_IS_EMPTY" },
          "Keyword text is empty.",
          at({ fieldName: "keyword" }, { fieldName: "text" }),
        );
      if (text.length > 80)
        return adsQueryError(
          kit,
          { criterionError: "KEYWORD_TEXT_TOO_LONG" },
          "Keyword text is too long.",
          at({ fieldName: "keyword" }, { fieldName: "text" }),
        );
      if (typeof keyword.matchType !== "string" || !["EXACT", "PHRASE", "BROAD"].includes(keyword.matchType))
        return kit.apiError(
          400,
          "INVALID_ARGUMENT",
          `Invalid value at 'operations[${index}].create.keyword.match_type' (type.googleapis.com/google.ads.googleads.v18.enums.KeywordMatchTypeEnum.KeywordMatchType), ${JSON.stringify(keyword.matchType ?? null)}`,
        );
      planned.push({ id: "", campaignId: m[2], text, matchType: keyword.matchType });
    }
    if (body.validateOnly === true) return { json: {} };
    for (const n of planned) {
      n.id = String(
        100_000_000 +
          account.negatives.length +
          hashInt(`${customer}/${n.text}/${account.negatives.length}`, 100_000_000),
      );
      account.negatives.push(n);
    }
    const mutable = body.responseContentType === "MUTABLE_RESOURCE";
    return {
      json: {
        results: planned.map((n) => {
          const resourceName = `customers/${customer}/campaignCriteria/${n.campaignId}~${n.id}`;
          return {
            resourceName,
            ...(mutable && {
              campaignCriterion: {
                resourceName,
                campaign: `customers/${customer}/campaigns/${n.campaignId}`,
                criterionId: n.id,
                negative: true,
                type: "KEYWORD",
                status: "ENABLED",
                keyword: { text: n.text, matchType: n.matchType },
              },
            }),
          };
        }),
      },
    };
  }

  const REALTIME_METRICS = new Set(["activeUsers", "screenPageViews", "eventCount", "conversions", "keyEvents"]);
  const REALTIME_DIMENSIONS: Record<string, string[]> = {
    country: ["United States", "Germany", "India"],
    city: ["New York", "Berlin", "Mumbai"],
    deviceCategory: ["desktop", "mobile", "tablet"],
    unifiedScreenName: ["Home", "Pricing", "Blog"],
    eventName: ["page_view", "scroll", "purchase"],
    minutesAgo: ["00", "01", "02"],
    platform: ["web", "iOS", "Android"],
  };

  /** The token's grant for a GA4 call, or Google's refusal (401, missing scope, rate limit). */
  function analyticsCaller(req: StandInRequest, method: string) {
    const t = kit.bearer(req);
    if (!t) return kit.unauthenticated();
    if (!kit.hasScope(t.scope, scopes.analytics, "https://www.googleapis.com/auth/analytics.edit"))
      return kit.insufficientScopes(
        "analyticsdata.googleapis.com",
        `google.analytics.data.v1beta.BetaAnalyticsData.${method}`,
      );
    return kit.throttled(t.account, "analyticsdata.googleapis.com") ?? t;
  }

  function realtime(req: StandInRequest): Reply {
    const t = analyticsCaller(req, "RunRealtimeReport");
    if (!("account" in t)) return t;
    const b = (req.json ?? {}) as {
      dimensions?: { name?: string }[];
      metrics?: { name?: string }[];
      minuteRanges?: { startMinutesAgo?: number; endMinutesAgo?: number }[];
      limit?: number | string;
    };
    const metrics = (b.metrics ?? []).map((m) => String(m.name));
    const dimensions = (b.dimensions ?? []).map((d) => String(d.name));
    if (!metrics.length) return kit.apiError(400, "INVALID_ARGUMENT", "A request must have at least one metric.");
    const link =
      "For a list of valid realtime dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema";
    const badMetric = metrics.find((m) => !REALTIME_METRICS.has(m));
    if (badMetric) return kit.apiError(400, "INVALID_ARGUMENT", `Field ${badMetric} is not a valid metric. ${link}`);
    const badDimension = dimensions.find((d) => !REALTIME_DIMENSIONS[d]);
    if (badDimension)
      return kit.apiError(400, "INVALID_ARGUMENT", `Field ${badDimension} is not a valid dimension. ${link}`);
    for (const r of b.minuteRanges ?? [])
      if (Number(r.startMinutesAgo ?? 29) > 29)
        return kit.apiError(
          400,
          "INVALID_ARGUMENT",
          `startMinutesAgo ${String(r.startMinutesAgo)} is out of range: a standard property's realtime reports cover the last 30 minutes (0-29).`,
        );
    let combos: string[][] = [[]];
    for (const d of dimensions) combos = combos.flatMap((c) => REALTIME_DIMENSIONS[d].map((v) => [...c, v]));
    const limit = Math.max(1, Math.min(Number(b.limit ?? 10000), 250000));
    const rows = combos.slice(0, limit).map((values) => ({
      dimensionValues: values.map((value) => ({ value })),
      metricValues: metrics.map((m) => ({
        value: String(hashInt(`${t.account}/${req.params.property}/${values.join("|")}/${m}`, 300)),
      })),
    }));
    return {
      json: {
        dimensionHeaders: dimensions.map((name) => ({ name })),
        metricHeaders: metrics.map((name) => ({ name, type: "TYPE_INTEGER" })),
        ...(rows.length && { rows }),
        rowCount: combos.length,
        kind: "analyticsData#runRealtimeReport",
      },
    };
  }

  function metadata(req: StandInRequest): Reply {
    const t = analyticsCaller(req, "GetMetadata");
    if (!("account" in t)) return t;
    const dim = (apiName: string, uiName: string, category: string, description: string, custom = false) => ({
      apiName,
      uiName,
      description,
      category,
      ...(custom && { customDefinition: true }),
    });
    return {
      json: {
        name: `properties/${req.params.property}/metadata`,
        dimensions: [
          dim("date", "Date", "Time", "The date of the event, formatted as YYYYMMDD."),
          dim("country", "Country", "Geography", "The country from which the user activity originated."),
          dim(
            "deviceCategory",
            "Device category",
            "Platform / Device",
            "The type of device: Desktop, Tablet, or Mobile.",
          ),
          dim(
            "sessionDefaultChannelGroup",
            "Session default channel group",
            "Traffic source",
            "The session's default channel group.",
          ),
          dim(
            "pagePath",
            "Page path",
            "Page / Screen",
            "The portion of the URL between the hostname and query string.",
          ),
          dim("customEvent:plan_tier", "Plan tier", "Custom", "A custom event-scoped dimension.", true),
        ],
        metrics: [
          {
            ...dim("sessions", "Sessions", "Session", "The number of sessions that began on your site or app."),
            type: "TYPE_INTEGER",
          },
          {
            ...dim("totalUsers", "Total users", "User", "The number of distinct users who logged at least one event."),
            type: "TYPE_INTEGER",
          },
          {
            ...dim(
              "totalRevenue",
              "Total revenue",
              "Revenue",
              "The sum of revenue from purchases, subscriptions and advertising.",
            ),
            type: "TYPE_CURRENCY",
          },
          {
            ...dim("engagementRate", "Engagement rate", "Session", "The percentage of engaged sessions."),
            type: "TYPE_FLOAT",
          },
        ],
      },
    };
  }

  /** The token's grant for a Search Console call, or Google's refusal. */
  function searchConsoleCaller(req: StandInRequest, method: string) {
    const t = kit.bearer(req);
    if (!t) return kit.unauthenticated();
    if (!kit.hasScope(t.scope, scopes.searchConsole, "https://www.googleapis.com/auth/webmasters"))
      return kit.insufficientScopes("searchconsole.googleapis.com", `google.searchconsole.v1.${method}`);
    return kit.throttled(t.account, "searchconsole.googleapis.com") ?? t;
  }

  /** Whether `url` is part of the Search Console property `site`. */
  const inProperty = (site: string, url: string) => {
    try {
      const host = new URL(url).hostname;
      if (site.startsWith("sc-domain:")) {
        const domain = site.slice("sc-domain:".length);
        return host === domain || host.endsWith(`.${domain}`);
      }
      return url.startsWith(site);
    } catch {
      return false;
    }
  };

  function inspect(req: StandInRequest): Reply {
    const t = searchConsoleCaller(req, "UrlInspectionService.InspectUrlIndex");
    if (!("account" in t)) return t;
    const b = (req.json ?? {}) as { inspectionUrl?: string; siteUrl?: string };
    if (!b.inspectionUrl || !b.siteUrl)
      return kit.apiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", [
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [{ field: b.siteUrl ? "inspection_url" : "site_url" }],
        },
      ]);
    if (!inProperty(b.siteUrl, b.inspectionUrl))
      return kit.apiError(
        403,
        "PERMISSION_DENIED",
        "You do not own this site, or the inspected URL is not part of this property.",
      );
    const excluded = /noindex/.test(b.inspectionUrl);
    return {
      json: {
        inspectionResult: {
          inspectionResultLink: `https://search.google.com/search-console/inspect?resource_id=${encodeURIComponent(b.siteUrl)}&id=${randomBytes(8).toString("base64url")}`,
          indexStatusResult: {
            verdict: excluded ? "NEUTRAL" : "PASS",
            coverageState: excluded ? "Excluded by ‘noindex’ tag" : "Submitted and indexed",
            robotsTxtState: "ALLOWED",
            indexingState: excluded ? "BLOCKED_BY_META_TAG" : "INDEXING_ALLOWED",
            lastCrawlTime: "2025-01-30T08:39:51Z",
            pageFetchState: "SUCCESSFUL",
            googleCanonical: b.inspectionUrl,
            userCanonical: b.inspectionUrl,
            crawledAs: "MOBILE",
            ...(!excluded && { sitemap: [`${new URL(b.inspectionUrl).origin}/sitemap.xml`] }),
            referringUrls: [`${new URL(b.inspectionUrl).origin}/`],
          },
          mobileUsabilityResult: { verdict: "PASS" },
          richResultsResult: excluded ? undefined : { verdict: "PASS", detectedItems: [] },
        },
      },
    };
  }

  function sitemaps(req: StandInRequest): Reply {
    const t = searchConsoleCaller(req, "SitemapsService.List");
    if (!("account" in t)) return t;
    const site = req.params.site;
    const origin = site.startsWith("sc-domain:")
      ? `https://www.${site.slice("sc-domain:".length)}`
      : site.replace(/\/$/, "");
    return {
      json: {
        sitemap: [
          {
            path: `${origin}/sitemap.xml`,
            lastSubmitted: "2025-01-02T10:00:00.000Z",
            isPending: false,
            isSitemapsIndex: true,
            type: "sitemap",
            lastDownloaded: "2025-01-30T03:12:00.000Z",
            warnings: "0",
            errors: "0",
            contents: [{ type: "web", submitted: "42", indexed: "0" }],
          },
          {
            path: `${origin}/post-sitemap.xml`,
            lastSubmitted: "2025-01-05T10:00:00.000Z",
            isPending: true,
            isSitemapsIndex: false,
            type: "sitemap",
            warnings: "2",
            errors: "1",
            contents: [{ type: "web", submitted: "17", indexed: "0" }],
          },
        ],
      },
    };
  }

  return {
    "POST /v18/customers/{customer}/adGroups:mutate": adGroupsMutate,
    "POST /v18/customers/{customer}/campaignCriteria:mutate": campaignCriteriaMutate,
    "POST /v1beta/properties/{property}:runRealtimeReport": realtime,
    "GET /v1beta/properties/{property}/metadata": metadata,
    "POST /v1/urlInspection/index:inspect": inspect,
    "GET /webmasters/v3/sites/{site}/sitemaps": sitemaps,
  };
}
