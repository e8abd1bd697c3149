import { createHash } from "node:crypto";
import type { GoogleExtension, GoogleKit } from "./google";
import type { Reply, Route, StandInRequest } from "./stand-in-server";

// Google Merchant Center, Business Profile, YouTube and Display & Video 360, served by the Google stand-in (google.ts) beside its sign-in and token
// endpoints, at their real paths and in Google's wire format ({error: {code, message, status, details}};
// the YouTube Data API's older {error: {code, message, errors: [{message, domain, reason}]}}).
// Every route needs a bearer token the stand-in issued with one of the scopes Google lists for the
// method (else 401 UNAUTHENTICATED / 403 PERMISSION_DENIED "insufficient authentication scopes"),
// and answers Google's 429 RESOURCE_EXHAUSTED to an account RateLimits throttles (Retry-After 1 for
// `throttled-once…`, 60 otherwise). State lives in memory per account (the token's account), so a
// write is seen by later reads. Lists take pageSize (refused above the method's maximum) and
// pageToken (an opaque offset; one not issued → 400 INVALID_ARGUMENT).
//
// Merchant API (scope content), one Merchant Center account per account, id digits("mc:<account>", 9),
// with three products of one API data source: en~US~sku-1 "Blue mug" 12.00 USD IN_STOCK,
// en~US~sku-2 "Red kettle" 39.90 USD OUT_OF_STOCK, disapproved (missing GTIN), en~US~sku-3 "Green tea
// 250 g" 7.50 USD IN_STOCK with a warning:
// - GET /accounts/v1/accounts → {accounts: [{name, accountId, accountName, timeZone, languageCode, testAccount}]}
// - GET /products/v1/accounts/{a}/products (pageSize ≤ 1000) → {products: [Product with productAttributes,
//   productStatus {destinationStatuses, itemLevelIssues}, dataSource]}; GET …/products/{id} → Product
//   (id plain contentLanguage~feedLabel~offerId or unpadded base64url of it); unknown → 404 NOT_FOUND.
// - PATCH /products/v1/accounts/{a}/productInputs/{id}?updateMask=productAttributes.price,productAttributes.availability&dataSource=…
//   body {productAttributes: {price: {amountMicros, currencyCode}, availability}} → the ProductInput. dataSource
//   missing or not the product's → 400; a mask field outside price/availability → 400; an availability
//   outside the enum, a price not whole micros or no currency → 400. Another account's ID → 403.
// Business Profile (scope business.manage), one account accounts/digits("gbp:<account>", 18), two
// locations, three reviews each (5, 2 and 4 stars; the 4-star one already replied to):
// - GET /v1/accounts (mybusinessaccountmanagement, pageSize ≤ 20) → {accounts: [{name, accountName, type, role, verificationState}]}
// - GET /v1/accounts/{a}/locations?readMask=… (mybusinessbusinessinformation, pageSize ≤ 100): readMask required
//   (400 INVALID_ARGUMENT naming read_mask otherwise), only the masked fields returned; an unknown field → 400.
// - GET /v4/accounts/{a}/locations/{l}/reviews (pageSize ≤ 50, orderBy updateTime desc | rating | rating desc)
//   → {reviews, averageRating, totalReviewCount, nextPageToken}; GET …/reviews/{r} → Review.
// - PUT /v4/accounts/{a}/locations/{l}/reviews/{r}/reply {comment} → ReviewReply {comment, updateTime};
//   empty comment → 400; unknown review → 404.
// YouTube Data API v3 (youtube, youtube.force-ssl, youtube.readonly) and Analytics API v2 (yt-analytics.readonly,
// youtube, youtube.readonly): one channel per account, UC + 22 characters derived from the account, with
// three uploads (IDs of 11 characters; category 22, tags; statistics as strings):
// - GET /youtube/v3/channels?part=…&mine=true, GET /youtube/v3/playlistItems?part=…&playlistId=UU… (maxResults ≤ 50),
//   GET /youtube/v3/videos?part=…&id=a,b (unknown ids left out). part missing → 400 required.
// - PUT /youtube/v3/videos?part=snippet {id, snippet} (youtube, youtube.force-ssl only): replaces the snippet
//   (tags not sent are dropped, as YouTube does); no categoryId → 400 invalidCategoryId; empty or over 100
//   characters or < > in the title → 400 invalidTitle; another video → 404 videoNotFound.
// - GET /v2/reports?ids=channel==MINE&startDate&endDate&metrics[&dimensions=day|month|video|country|…][&filters=video==ID][&sort][&maxResults]
//   → {kind, columnHeaders, rows}; values derived from account, date and metric. Missing fields → 400;
//   an unknown metric → 400 "Unknown identifier"; dimension video without a descending sort → 400.
// Display & Video 360 API v4 (scope display-video): one partner per account, two advertisers, each with one
// campaign, two insertion orders and three line items (ACTIVE, ACTIVE, PAUSED):
// - GET /v4/partners, GET /v4/advertisers?partnerId= (required; another partner → 403),
//   GET /v4/advertisers/{a}/campaigns | insertionOrders | lineItems (filter `field="value" AND …` on
//   entityStatus, campaignId, insertionOrderId; pageSize ≤ 200); GET /v4/advertisers/{a}/lineItems/{l}.
// - PATCH /v4/advertisers/{a}/lineItems/{l}?updateMask=entityStatus {entityStatus}: ACTIVE / PAUSED (ARCHIVED
//   too); no mask or another field → 400; an unknown line item → 404 NOT_FOUND.

const SCOPE = {
  content: "https://www.googleapis.com/auth/content",
  business: "https://www.googleapis.com/auth/business.manage",
  youtube: "https://www.googleapis.com/auth/youtube",
  youtubeForceSsl: "https://www.googleapis.com/auth/youtube.force-ssl",
  youtubeReadonly: "https://www.googleapis.com/auth/youtube.readonly",
  analytics: "https://www.googleapis.com/auth/yt-analytics.readonly",
  dv360: "https://www.googleapis.com/auth/display-video",
};

const hash = (seed: string) => createHash("sha256").update(seed).digest();
const hashInt = (seed: string, max: number) => hash(seed).readUInt32BE(0) % max;
/** n characters of the YouTube ID alphabet derived from seed. */
const ytId = (seed: string, n: number) => hash(seed).toString("base64url").slice(0, n);
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type Json = Record<string, unknown>;

/** `items` from pageToken on, pageSize of them, and the token of the next page. */
function paged<T>(
  kit: GoogleKit,
  req: StandInRequest,
  items: T[],
  { max, fallback, sizeParam = "pageSize" }: { max: number; fallback: number; sizeParam?: string },
): { page: T[]; next?: string } | Reply {
  const raw = req.query.get(sizeParam);
  const size = raw === null ? fallback : Number(raw);
  if (!Number.isInteger(size) || size < 0 || size > max)
    return kit.apiError(400, "INVALID_ARGUMENT", `Invalid value for ${sizeParam}: ${raw} (at most ${max}).`);
  const token = req.query.get("pageToken");
  let from = 0;
  if (token) {
    const m = /^offset:(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"));
    if (!m) return kit.apiError(400, "INVALID_ARGUMENT", "Invalid page token.");
    from = Number(m[1]);
  }
  const to = from + (size || fallback);
  return {
    page: items.slice(from, to),
    ...(to < items.length && { next: Buffer.from(`offset:${to}`).toString("base64url") }),
  };
}
const isReply = (v: unknown): v is Reply => typeof v === "object" && v !== null && "status" in v && !("page" in v);

// ---- Merchant Center ----

type Issue = { code: string; severity: string; attribute: string; description: string; detail: string };
type MerchantProduct = {
  offerId: string;
  title: string;
  micros: string;
  currency: string;
  availability: string;
  issues: Issue[];
};
const MERCHANT_PRODUCTS: MerchantProduct[] = [
  { offerId: "sku-1", title: "Blue mug", micros: "12000000", currency: "USD", availability: "IN_STOCK", issues: [] },
  {
    offerId: "sku-2",
    title: "Red kettle",
    micros: "39900000",
    currency: "USD",
    availability: "OUT_OF_STOCK",
    issues: [
      {
        code: "missing_required_gtin",
        severity: "DISAPPROVED",
        attribute: "gtin",
        description: "Missing value [gtin]",
        detail: "Add a GTIN to your product data.",
      },
    ],
  },
  {
    offerId: "sku-3",
    title: "Green tea 250 g",
    micros: "7500000",
    currency: "USD",
    availability: "IN_STOCK",
    issues: [
      {
        code: "image_link_small",
        severity: "NOT_IMPACTED",
        attribute: "image link",
        description: "Image too small",
        detail: "Use an image of at least 100 x 100 pixels.",
      },
    ],
  },
];
const MERCHANT_AVAILABILITY = ["IN_STOCK", "OUT_OF_STOCK", "PREORDER", "LIMITED_AVAILABILITY", "BACKORDER"];

// ---- Business Profile ----

type Review = {
  reviewId: string;
  reviewer: string;
  starRating: string;
  comment: string;
  createTime: string;
  reply: { comment: string; updateTime: string } | null;
};
type Location = { id: string; title: string; street: string; city: string; postalCode: string; reviews: Review[] };

// ---- YouTube ----

type Video = {
  id: string;
  title: string;
  description: string;
  categoryId: string;
  tags: string[];
  publishedAt: string;
  views: number;
};

// ---- Display & Video 360 ----

type LineItem = {
  lineItemId: string;
  insertionOrderId: string;
  campaignId: string;
  displayName: string;
  entityStatus: string;
};
type Advertiser = {
  advertiserId: string;
  displayName: string;
  campaignId: string;
  insertionOrderIds: string[];
  lineItems: LineItem[];
};

type State = {
  merchantId: string;
  products: MerchantProduct[];
  gbpAccount: string;
  locations: Location[];
  channelId: string;
  videos: Video[];
  partnerId: string;
  advertisers: Advertiser[];
};

function routes(kit: GoogleKit): Record<string, Route> {
  const states = new Map<string, State>();
  function stateOf(account: string): State {
    let s = states.get(account);
    if (s) return s;
    const gbpAccount = kit.digits(`gbp:${account}`, 18);
    const now = Date.now();
    s = {
      merchantId: kit.digits(`mc:${account}`, 9),
      products: MERCHANT_PRODUCTS.map((p) => ({ ...p, issues: [...p.issues] })),
      gbpAccount,
      locations: [0, 1].map((i) => ({
        id: kit.digits(`gbpl:${account}:${i}`, 19),
        title: i === 0 ? "Patchbay Bakery — Main Street" : "Patchbay Bakery — Station Road",
        street: i === 0 ? "12 Main Street" : "3 Station Road",
        city: "Springfield",
        postalCode: i === 0 ? "12345" : "12346",
        reviews: [
          { stars: "FIVE", who: "Ada L.", text: "Best croissants in town.", reply: null },
          { stars: "TWO", who: "Bob K.", text: "Waited twenty minutes for a coffee.", reply: null },
          { stars: "FOUR", who: "Cleo M.", text: "Lovely bread, a bit pricey.", reply: "Thank you, Cleo!" },
        ].map((r, j) => ({
          reviewId: `AbFvOq${ytId(`gbpr:${account}:${i}:${j}`, 14)}`,
          reviewer: r.who,
          starRating: r.stars,
          comment: r.text,
          createTime: new Date(now - (j + 1) * 3 * DAY_MS).toISOString(),
          reply: r.reply ? { comment: r.reply, updateTime: new Date(now - (j + 1) * DAY_MS).toISOString() } : null,
        })),
      })),
      channelId: `UC${ytId(`ytc:${account}`, 22)}`,
      videos: ["How we bake sourdough", "Spring menu tour", "Behind the counter"].map((title, i) => ({
        id: ytId(`ytv:${account}:${i}`, 11),
        title,
        description: `${title}: a video of ${account}.`,
        categoryId: "22",
        tags: ["bakery", "food"],
        publishedAt: new Date(now - (i + 1) * 7 * DAY_MS).toISOString(),
        views: 100 + hashInt(`ytviews:${account}:${i}`, 100_000),
      })),
      partnerId: kit.digits(`dvp:${account}`, 7),
      advertisers: [0, 1].map((i) => {
        const campaignId = kit.digits(`dvc:${account}:${i}`, 8);
        const insertionOrderIds = [0, 1].map((j) => kit.digits(`dvio:${account}:${i}:${j}`, 8));
        return {
          advertiserId: kit.digits(`dva:${account}:${i}`, 7),
          displayName: i === 0 ? "Patchbay Shoes" : "Patchbay Coffee",
          campaignId,
          insertionOrderIds,
          lineItems: ["Prospecting — display", "Retargeting — display", "Video — awareness"].map((name, j) => ({
            lineItemId: kit.digits(`dvli:${account}:${i}:${j}`, 8),
            insertionOrderId: insertionOrderIds[j === 2 ? 1 : 0],
            campaignId,
            displayName: name,
            entityStatus: j === 2 ? "ENTITY_STATUS_PAUSED" : "ENTITY_STATUS_ACTIVE",
          })),
        };
      }),
    };
    states.set(account, s);
    return s;
  }

  /**
   * The caller's grant after the checks every route makes (token, scope, rate limit), or the
   * refusal to answer. `method` names the RPC in the insufficient-scope error, as Google does.
   */
  function guard(
    req: StandInRequest,
    service: string,
    method: string,
    scopes: string[],
  ): { account: string; state: State } | Reply {
    const t = kit.bearer(req);
    if (!t) return kit.unauthenticated();
    if (!kit.hasScope(t.scope, ...scopes)) return kit.insufficientScopes(service, method);
    const limited = kit.throttled(t.account, service);
    if (limited) return limited;
    return { account: t.account, state: stateOf(t.account) };
  }
  const refused = (g: unknown): g is Reply => isReply(g);
  const notFound = () => kit.apiError(404, "NOT_FOUND", "Requested entity was not found.");
  const denied = () => kit.apiError(403, "PERMISSION_DENIED", "The caller does not have permission");
  const badRequest = (message: string, field?: string, description?: string) =>
    kit.apiError(
      400,
      "INVALID_ARGUMENT",
      message,
      field
        ? [
            {
              "@type": "type.googleapis.com/google.rpc.BadRequest",
              fieldViolations: [{ field, description: description ?? message }],
            },
          ]
        : [],
    );

  // ---- Merchant API ----

  const MERCHANT = "merchantapi.googleapis.com";
  const merchantGuard = (req: StandInRequest, method: string) =>
    guard(req, MERCHANT, `google.shopping.merchant.${method}`, [SCOPE.content]);
  const merchantAccess = (req: StandInRequest, s: State): Reply | null =>
    req.params.account === s.merchantId
      ? null
      : kit.apiError(
          403,
          "PERMISSION_DENIED",
          `The caller does not have access to the accounts: [${req.params.account}]`,
        );
  const dataSourceOf = (s: State) => `accounts/${s.merchantId}/dataSources/${kit.digits(`mcds:${s.merchantId}`, 8)}`;
  /** contentLanguage~feedLabel~offerId, plain or unpadded base64url. */
  const productKey = (segment: string) =>
    segment.includes("~") ? segment : Buffer.from(segment, "base64url").toString("utf8");
  const findProduct = (s: State, segment: string) => {
    const m = /^en~US~(.+)$/.exec(productKey(segment));
    return m ? s.products.find((p) => p.offerId === m[1]) : undefined;
  };
  const attributesOf = (p: MerchantProduct) => ({
    title: p.title,
    link: `https://shop.example.com/p/${p.offerId}`,
    availability: p.availability,
    price: { amountMicros: p.micros, currencyCode: p.currency },
    condition: "NEW",
  });
  const productJson = (s: State, p: MerchantProduct) => ({
    name: `accounts/${s.merchantId}/products/en~US~${p.offerId}`,
    offerId: p.offerId,
    contentLanguage: "en",
    feedLabel: "US",
    dataSource: dataSourceOf(s),
    productAttributes: attributesOf(p),
    productStatus: {
      destinationStatuses: [
        {
          reportingContext: "SHOPPING_ADS",
          ...(p.issues.some((i) => i.severity === "DISAPPROVED")
            ? { disapprovedCountries: ["US"] }
            : { approvedCountries: ["US"] }),
        },
      ],
      ...(p.issues.length && {
        itemLevelIssues: p.issues.map((i) => ({
          ...i,
          resolution: "merchant_action",
          reportingContext: "SHOPPING_ADS",
          documentation: "https://support.google.com/merchants/answer/6324461",
          applicableCountries: ["US"],
        })),
      }),
      creationDate: "2026-01-05T10:00:00Z",
      lastUpdateDate: "2026-11-20T10:00:00Z",
      googleExpirationDate: "2026-12-20T10:00:00Z",
    },
  });

  function merchantAccounts(req: StandInRequest): Reply {
    const g = merchantGuard(req, "accounts.v1.AccountsService.ListAccounts");
    if (refused(g)) return g;
    const p = paged(kit, req, [g.state.merchantId], { max: 500, fallback: 250 });
    if (isReply(p)) return p;
    return {
      json: {
        accounts: p.page.map((id) => ({
          name: `accounts/${id}`,
          accountId: id,
          accountName: `${g.account} Store`,
          adultContent: false,
          testAccount: false,
          timeZone: { id: "America/New_York" },
          languageCode: "en",
        })),
        ...(p.next && { nextPageToken: p.next }),
      },
    };
  }

  function merchantProducts(req: StandInRequest): Reply {
    const g = merchantGuard(req, "products.v1.ProductsService.ListProducts");
    if (refused(g)) return g;
    const refusal = merchantAccess(req, g.state);
    if (refusal) return refusal;
    const p = paged(kit, req, g.state.products, { max: 1000, fallback: 25 });
    if (isReply(p)) return p;
    return {
      json: {
        ...(p.page.length && { products: p.page.map((x) => productJson(g.state, x)) }),
        ...(p.next && { nextPageToken: p.next }),
      },
    };
  }

  function merchantProduct(req: StandInRequest): Reply {
    const g = merchantGuard(req, "products.v1.ProductsService.GetProduct");
    if (refused(g)) return g;
    const refusal = merchantAccess(req, g.state);
    if (refusal) return refusal;
    const p = findProduct(g.state, req.params.product);
    return p ? { json: productJson(g.state, p) } : notFound();
  }

  function merchantPatch(req: StandInRequest): Reply {
    const g = merchantGuard(req, "products.v1.ProductInputsService.UpdateProductInput");
    if (refused(g)) return g;
    const refusal = merchantAccess(req, g.state);
    if (refusal) return refusal;
    const product = findProduct(g.state, req.params.product);
    if (!product) return notFound();
    const dataSource = req.query.get("dataSource");
    if (!dataSource) return badRequest("Required parameter: data_source", "data_source", "Field is required");
    if (dataSource !== dataSourceOf(g.state))
      return badRequest(`Invalid data source name: ${dataSource}`, "data_source");
    const attributes = ((req.json ?? {}) as { productAttributes?: Json }).productAttributes ?? {};
    const mask = (req.query.get("updateMask") ?? "")
      .split(",")
      .filter(Boolean)
      .map((f) => f.replace(/^product_attributes\./, "productAttributes."));
    const fields = mask.length ? mask : Object.keys(attributes).map((k) => `productAttributes.${k}`);
    const next = { ...product };
    for (const field of fields) {
      if (field === "productAttributes.availability") {
        const v = attributes.availability;
        if (typeof v !== "string" || !MERCHANT_AVAILABILITY.includes(v))
          return badRequest(
            `Invalid value at 'product_input.product_attributes.availability' (type.googleapis.com/google.shopping.merchant.products.v1.Availability), ${JSON.stringify(v ?? null)}`,
            "product_input.product_attributes.availability",
          );
        next.availability = v;
      } else if (field === "productAttributes.price") {
        const price = (attributes.price ?? {}) as { amountMicros?: unknown; currencyCode?: unknown };
        if (!/^\d+$/.test(String(price.amountMicros ?? "")))
          return badRequest(
            `Invalid value at 'product_input.product_attributes.price.amount_micros' (TYPE_INT64), ${JSON.stringify(price.amountMicros ?? null)}`,
            "product_input.product_attributes.price.amount_micros",
          );
        if (typeof price.currencyCode !== "string" || !/^[A-Z]{3}$/.test(price.currencyCode))
          return badRequest("Invalid currency code.", "product_input.product_attributes.price.currency_code");
        next.micros = String(price.amountMicros);
        next.currency = price.currencyCode;
      } else {
        return badRequest(`Invalid update mask field: ${field}`, "update_mask");
      }
    }
    Object.assign(product, next);
    return {
      json: {
        name: `accounts/${g.state.merchantId}/productInputs/en~US~${product.offerId}`,
        product: `accounts/${g.state.merchantId}/products/en~US~${product.offerId}`,
        offerId: product.offerId,
        contentLanguage: "en",
        feedLabel: "US",
        productAttributes: attributesOf(product),
      },
    };
  }

  // ---- Business Profile ----

  const gbpGuard = (req: StandInRequest, service: string, method: string) =>
    guard(req, service, method, [SCOPE.business, "https://www.googleapis.com/auth/plus.business.manage"]);
  const ACCOUNT_MANAGEMENT = "mybusinessaccountmanagement.googleapis.com";
  const INFORMATION = "mybusinessbusinessinformation.googleapis.com";
  const REVIEWS = "mybusiness.googleapis.com";
  const LOCATION_FIELDS = new Set([
    "name",
    "title",
    "storefrontAddress",
    "websiteUri",
    "phoneNumbers",
    "categories",
    "metadata",
    "languageCode",
    "storeCode",
    "regularHours",
  ]);
  const reviewJson = (s: State, l: Location, r: Review) => ({
    name: `accounts/${s.gbpAccount}/locations/${l.id}/reviews/${r.reviewId}`,
    reviewId: r.reviewId,
    reviewer: { displayName: r.reviewer, isAnonymous: false },
    starRating: r.starRating,
    comment: r.comment,
    createTime: r.createTime,
    updateTime: r.reply?.updateTime ?? r.createTime,
    ...(r.reply && { reviewReply: r.reply }),
  });
  const locationOf = (req: StandInRequest, s: State) =>
    req.params.account === s.gbpAccount ? s.locations.find((l) => l.id === req.params.location) : undefined;

  function gbpAccounts(req: StandInRequest): Reply {
    const g = gbpGuard(req, ACCOUNT_MANAGEMENT, "google.mybusiness.accountmanagement.v1.AccessControl.ListAccounts");
    if (refused(g)) return g;
    const p = paged(kit, req, [g.state.gbpAccount], { max: 20, fallback: 20 });
    if (isReply(p)) return p;
    return {
      json: {
        accounts: p.page.map((id) => ({
          name: `accounts/${id}`,
          accountName: `${g.account} Bakery`,
          type: "LOCATION_GROUP",
          role: "PRIMARY_OWNER",
          verificationState: "VERIFIED",
          vettedState: "NOT_VETTED",
        })),
        ...(p.next && { nextPageToken: p.next }),
      },
    };
  }

  function gbpLocations(req: StandInRequest): Reply {
    const g = gbpGuard(req, INFORMATION, "google.mybusiness.businessinformation.v1.Locations.ListLocations");
    if (refused(g)) return g;
    if (req.params.account !== g.state.gbpAccount) return denied();
    const readMask = req.query.get("readMask");
    if (!readMask) return badRequest("Request contains an invalid argument.", "read_mask", "Field is required");
    const fields = readMask.split(",").map((f) => f.trim());
    const unknown = fields.find((f) => !LOCATION_FIELDS.has(f));
    if (unknown)
      return badRequest("Request contains an invalid argument.", "read_mask", `Invalid field mask path: ${unknown}`);
    const p = paged(kit, req, g.state.locations, { max: 100, fallback: 10 });
    if (isReply(p)) return p;
    const full = (l: Location): Json => ({
      name: `locations/${l.id}`,
      title: l.title,
      storefrontAddress: {
        regionCode: "US",
        languageCode: "en",
        postalCode: l.postalCode,
        administrativeArea: "IL",
        locality: l.city,
        addressLines: [l.street],
      },
      websiteUri: "https://bakery.example.com/",
      phoneNumbers: { primaryPhone: "+1 217-555-0100" },
      categories: { primaryCategory: { name: "categories/gcid:bakery", displayName: "Bakery" } },
      metadata: { mapsUri: `https://maps.google.com/maps?cid=${l.id}`, placeId: `ChIJ${ytId(`place:${l.id}`, 23)}` },
      languageCode: "en",
    });
    return {
      json: {
        locations: p.page.map((l) => Object.fromEntries(Object.entries(full(l)).filter(([k]) => fields.includes(k)))),
        ...(p.next && { nextPageToken: p.next }),
        totalSize: g.state.locations.length,
      },
    };
  }

  const STAR_VALUE: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

  function gbpReviews(req: StandInRequest): Reply {
    const g = gbpGuard(req, REVIEWS, "google.mybusiness.v4.Reviews.ListReviews");
    if (refused(g)) return g;
    const location = locationOf(req, g.state);
    if (!location) return notFound();
    const orderBy = req.query.get("orderBy") ?? "updateTime desc";
    if (!["updateTime desc", "rating", "rating desc"].includes(orderBy))
      return badRequest(`Invalid orderBy: ${orderBy}`, "order_by");
    const sorted = [...location.reviews].sort((a, b) =>
      orderBy === "rating"
        ? STAR_VALUE[a.starRating] - STAR_VALUE[b.starRating]
        : orderBy === "rating desc"
          ? STAR_VALUE[b.starRating] - STAR_VALUE[a.starRating]
          : (b.reply?.updateTime ?? b.createTime).localeCompare(a.reply?.updateTime ?? a.createTime),
    );
    const p = paged(kit, req, sorted, { max: 50, fallback: 50 });
    if (isReply(p)) return p;
    const stars = location.reviews.map((r) => STAR_VALUE[r.starRating]);
    return {
      json: {
        reviews: p.page.map((r) => reviewJson(g.state, location, r)),
        averageRating: Math.round((stars.reduce((a, b) => a + b, 0) / stars.length) * 10) / 10,
        totalReviewCount: location.reviews.length,
        ...(p.next && { nextPageToken: p.next }),
      },
    };
  }

  function gbpReview(req: StandInRequest): Reply {
    const g = gbpGuard(req, REVIEWS, "google.mybusiness.v4.Reviews.GetReview");
    if (refused(g)) return g;
    const location = locationOf(req, g.state);
    const review = location?.reviews.find((r) => r.reviewId === req.params.review);
    return location && review ? { json: reviewJson(g.state, location, review) } : notFound();
  }

  function gbpReply(req: StandInRequest): Reply {
    const g = gbpGuard(req, REVIEWS, "google.mybusiness.v4.Reviews.UpdateReply");
    if (refused(g)) return g;
    const location = locationOf(req, g.state);
    const review = location?.reviews.find((r) => r.reviewId === req.params.review);
    if (!location || !review) return notFound();
    const comment = (req.json as { comment?: unknown } | null)?.comment;
    if (typeof comment !== "string" || !comment.trim())
      return badRequest("Request contains an invalid argument.", "comment", "Field is required");
    if (comment.length > 4096) return badRequest("Request contains an invalid argument.", "comment", "Too long");
    review.reply = { comment, updateTime: new Date().toISOString() };
    return { json: review.reply };
  }

  // ---- YouTube ----

  const YOUTUBE = "youtube.googleapis.com";
  /** The YouTube Data API's error body: the v1 errors list beside code and message. */
  const ytError = (code: number, reason: string, message: string, domain = "youtube.api"): Reply => ({
    status: code,
    json: { error: { code, message, errors: [{ message, domain, reason }] } },
  });
  const ytRead = (req: StandInRequest, method: string) =>
    guard(req, YOUTUBE, `youtube.api.v3.V3DataService.${method}`, [
      SCOPE.youtube,
      SCOPE.youtubeForceSsl,
      SCOPE.youtubeReadonly,
      "https://www.googleapis.com/auth/youtubepartner",
    ]);
  const needPart = (req: StandInRequest) =>
    req.query.get("part") ? null : ytError(400, "required", "Required parameter: part", "global");
  const videoJson = (s: State, v: Video, parts: string[]) => ({
    kind: "youtube#video",
    etag: ytId(`etag:${v.id}:${v.title}`, 27),
    id: v.id,
    ...(parts.includes("snippet") && {
      snippet: {
        publishedAt: v.publishedAt,
        channelId: s.channelId,
        title: v.title,
        description: v.description,
        channelTitle: "Patchbay Bakery",
        ...(v.tags.length && { tags: v.tags }),
        categoryId: v.categoryId,
        liveBroadcastContent: "none",
      },
    }),
    ...(parts.includes("statistics") && {
      statistics: {
        viewCount: String(v.views),
        likeCount: String(Math.floor(v.views / 20)),
        favoriteCount: "0",
        commentCount: String(Math.floor(v.views / 200)),
      },
    }),
    ...(parts.includes("status") && {
      status: { uploadStatus: "processed", privacyStatus: "public", license: "youtube", embeddable: true },
    }),
  });

  function ytChannels(req: StandInRequest): Reply {
    const g = ytRead(req, "ChannelsList");
    if (refused(g)) return g;
    const missing = needPart(req);
    if (missing) return missing;
    if (req.query.get("mine") !== "true" && !req.query.get("id"))
      return ytError(
        400,
        "missingRequiredParameter",
        "No filter selected. Expected one of: id, mine, forHandle, forUsername, managedByMe, categoryId",
        "youtube.parameter",
      );
    const parts = (req.query.get("part") ?? "").split(",");
    const s = g.state;
    const mine = req.query.get("mine") === "true" || (req.query.get("id") ?? "").split(",").includes(s.channelId);
    const total = s.videos.reduce((a, v) => a + v.views, 0);
    return {
      json: {
        kind: "youtube#channelListResponse",
        pageInfo: { totalResults: mine ? 1 : 0, resultsPerPage: 5 },
        ...(mine && {
          items: [
            {
              kind: "youtube#channel",
              id: s.channelId,
              ...(parts.includes("snippet") && {
                snippet: {
                  title: `${g.account} Bakery`,
                  description: "Bread, pastry and coffee.",
                  customUrl: `@${g.account.replace(/[^a-z0-9]/gi, "").toLowerCase()}`,
                  publishedAt: "2020-03-01T09:00:00Z",
                },
              }),
              ...(parts.includes("contentDetails") && {
                contentDetails: { relatedPlaylists: { likes: "", uploads: `UU${s.channelId.slice(2)}` } },
              }),
              ...(parts.includes("statistics") && {
                statistics: {
                  viewCount: String(total),
                  subscriberCount: String(1000 + hashInt(`subs:${g.account}`, 50_000)),
                  hiddenSubscriberCount: false,
                  videoCount: String(s.videos.length),
                },
              }),
            },
          ],
        }),
      },
    };
  }

  function ytPlaylistItems(req: StandInRequest): Reply {
    const g = ytRead(req, "PlaylistItemsList");
    if (refused(g)) return g;
    const missing = needPart(req);
    if (missing) return missing;
    const playlist = req.query.get("playlistId");
    if (playlist !== `UU${g.state.channelId.slice(2)}`)
      return ytError(
        404,
        "playlistNotFound",
        "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
      );
    const p = paged(kit, req, g.state.videos, { max: 50, fallback: 5, sizeParam: "maxResults" });
    if (isReply(p)) return p;
    return {
      json: {
        kind: "youtube#playlistItemListResponse",
        items: p.page.map((v, i) => ({
          kind: "youtube#playlistItem",
          id: ytId(`pli:${v.id}`, 40),
          ...(/contentDetails/.test(req.query.get("part") ?? "") && {
            contentDetails: { videoId: v.id, videoPublishedAt: v.publishedAt },
          }),
          ...(/snippet/.test(req.query.get("part") ?? "") && {
            snippet: { title: v.title, position: i, resourceId: { kind: "youtube#video", videoId: v.id } },
          }),
        })),
        ...(p.next && { nextPageToken: p.next }),
        pageInfo: { totalResults: g.state.videos.length, resultsPerPage: p.page.length },
      },
    };
  }

  function ytVideos(req: StandInRequest): Reply {
    const g = ytRead(req, "VideosList");
    if (refused(g)) return g;
    const missing = needPart(req);
    if (missing) return missing;
    const ids = (req.query.get("id") ?? "").split(",").filter(Boolean);
    if (!ids.length)
      return ytError(
        400,
        "missingRequiredParameter",
        "No filter selected. Expected one of: id, chart, myRating",
        "youtube.parameter",
      );
    const parts = (req.query.get("part") ?? "").split(",");
    const items = ids
      .flatMap((id) => g.state.videos.filter((v) => v.id === id))
      .map((v) => videoJson(g.state, v, parts));
    return {
      json: {
        kind: "youtube#videoListResponse",
        items,
        pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      },
    };
  }

  function ytUpdate(req: StandInRequest): Reply {
    const g = guard(req, YOUTUBE, "youtube.api.v3.V3DataService.VideosUpdate", [
      SCOPE.youtube,
      SCOPE.youtubeForceSsl,
      "https://www.googleapis.com/auth/youtubepartner",
    ]);
    if (refused(g)) return g;
    const missing = needPart(req);
    if (missing) return missing;
    const body = (req.json ?? {}) as { id?: unknown; snippet?: Json };
    const video = g.state.videos.find((v) => v.id === body.id);
    if (!video)
      return ytError(
        404,
        "videoNotFound",
        "The video that you are trying to update cannot be found. Check the value of the <code>id</code> field in the request body to ensure that it is correct.",
      );
    const parts = (req.query.get("part") ?? "").split(",");
    if (parts.includes("snippet")) {
      const snippet = body.snippet ?? {};
      const title = snippet.title;
      if (typeof title !== "string" || !title.trim() || title.length > 100 || /[<>]/.test(title))
        return ytError(400, "invalidTitle", "The request metadata specifies an invalid or empty video title.");
      const description = snippet.description ?? "";
      if (typeof description !== "string" || Buffer.byteLength(description) > 5000 || /[<>]/.test(description))
        return ytError(400, "invalidDescription", "The request metadata specifies an invalid video description.");
      if (typeof snippet.categoryId !== "string" || !/^\d+$/.test(snippet.categoryId))
        return ytError(
          400,
          "invalidCategoryId",
          "The <code>snippet.categoryId</code> property specifies an invalid category ID. Use the <code>videoCategories.list</code> method to retrieve supported categories.",
        );
      video.title = title;
      video.description = description;
      video.categoryId = snippet.categoryId;
      video.tags = Array.isArray(snippet.tags) ? snippet.tags.map(String) : [];
    }
    return { json: videoJson(g.state, video, parts) };
  }

  const YT_METRICS = new Set([
    "views",
    "estimatedMinutesWatched",
    "averageViewDuration",
    "averageViewPercentage",
    "likes",
    "dislikes",
    "comments",
    "shares",
    "subscribersGained",
    "subscribersLost",
  ]);
  const YT_DIMENSION_VALUES: Record<string, string[]> = {
    country: ["US", "DE", "GB", "FR"],
    deviceType: ["DESKTOP", "MOBILE", "TABLET", "TV"],
    insightTrafficSourceType: ["YT_SEARCH", "SUGGESTED", "EXT_URL", "BROWSE"],
    subscribedStatus: ["SUBSCRIBED", "UNSUBSCRIBED"],
  };

  function ytReports(req: StandInRequest): Reply {
    const g = guard(req, "youtubeanalytics.googleapis.com", "youtube.analytics.v2.Reports.Query", [
      SCOPE.analytics,
      SCOPE.youtube,
      SCOPE.youtubeReadonly,
      "https://www.googleapis.com/auth/yt-analytics-monetary.readonly",
    ]);
    if (refused(g)) return g;
    const q = req.query;
    for (const field of ["ids", "startDate", "endDate", "metrics"])
      if (!q.get(field)) return ytError(400, "required", `Required field '${field}' was not provided.`, "global");
    if (q.get("ids") !== "channel==MINE" && q.get("ids") !== `channel==${g.state.channelId}`)
      return ytError(403, "forbidden", "Forbidden", "global");
    const metrics = q.get("metrics")!.split(",");
    const unknown = metrics.find((m) => !YT_METRICS.has(m));
    if (unknown)
      return ytError(400, "badRequest", `Unknown identifier (${unknown}) given in field parameters.metrics.`, "global");
    const from = q.get("startDate")!;
    const to = q.get("endDate")!;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to) || from > to)
      return ytError(400, "badRequest", "Invalid date range.", "global");
    const dimension = q.get("dimensions");
    const filter = q.get("filters");
    const videoFilter = filter ? /^video==([A-Za-z0-9_-]{11})$/.exec(filter)?.[1] : undefined;
    if (filter && !videoFilter) return ytError(400, "badRequest", `Invalid filter: ${filter}`, "global");
    if (dimension === "video" && !/^-/.test(q.get("sort") ?? ""))
      return ytError(
        400,
        "badRequest",
        "The query is not supported. Check the documentation at https://developers.google.com/youtube/analytics/v2/available_reports for a list of supported queries.",
        "global",
      );
    let keys: string[] = [""];
    if (dimension === "day") {
      keys = [];
      for (
        let t = Date.parse(`${from}T00:00:00Z`);
        t <= Date.parse(`${to}T00:00:00Z`) && keys.length < 400;
        t += DAY_MS
      )
        keys.push(isoDay(t));
    } else if (dimension === "month") {
      keys = [...new Set([from.slice(0, 7), to.slice(0, 7)])];
    } else if (dimension === "video") {
      keys = g.state.videos.map((v) => v.id);
    } else if (dimension) {
      keys = YT_DIMENSION_VALUES[dimension] ?? [];
      if (!keys.length)
        return ytError(
          400,
          "badRequest",
          `Unknown identifier (${dimension}) given in field parameters.dimensions.`,
          "global",
        );
    }
    const value = (key: string, m: string) => {
      const seed = `${g.account}/${videoFilter ?? ""}/${key}/${m}`;
      return /average/.test(m) ? hashInt(seed, 10000) / 100 : hashInt(seed, 5000);
    };
    let rows = keys.map((k) => [...(dimension ? [k] : []), ...metrics.map((m) => value(k, m))]);
    const sort = q.get("sort");
    if (sort && dimension) {
      const col = [dimension, ...metrics].indexOf(sort.replace(/^-/, ""));
      if (col < 0)
        return ytError(400, "badRequest", `Unknown identifier (${sort}) given in field parameters.sort.`, "global");
      const dir = sort.startsWith("-") ? -1 : 1;
      rows = rows.sort((a, b) => (a[col] < b[col] ? -dir : a[col] > b[col] ? dir : 0));
    }
    const max = Number(q.get("maxResults") ?? 0);
    if (max > 0) rows = rows.slice(0, max);
    return {
      json: {
        kind: "youtubeAnalytics#resultTable",
        columnHeaders: [
          ...(dimension ? [{ name: dimension, columnType: "DIMENSION", dataType: "STRING" }] : []),
          ...metrics.map((m) => ({ name: m, columnType: "METRIC", dataType: /average/.test(m) ? "FLOAT" : "INTEGER" })),
        ],
        rows,
      },
    };
  }

  // ---- Display & Video 360 ----

  const DV = "displayvideo.googleapis.com";
  const dvGuard = (req: StandInRequest, method: string) =>
    guard(req, DV, `google.ads.displayvideo.v4.${method}`, [SCOPE.dv360]);
  /** DV360's list filter: `field="value"` (or field=value) joined with AND; null when it does not parse. */
  function dvFilter(raw: string | null, allowed: string[]): Record<string, string> | Reply {
    if (!raw) return {};
    const out: Record<string, string> = {};
    for (const part of raw.split(/\s+AND\s+/)) {
      const m = /^\s*(\w+)\s*=\s*"?([^"]*)"?\s*$/.exec(part);
      if (!m || !allowed.includes(m[1])) return badRequest(`Invalid filter: ${raw}`, "filter");
      out[m[1]] = m[2];
    }
    return out;
  }
  const advertiserOf = (req: StandInRequest, s: State) =>
    s.advertisers.find((a) => a.advertiserId === req.params.advertiser);
  const lineItemJson = (a: Advertiser, l: LineItem) => ({
    name: `advertisers/${a.advertiserId}/lineItems/${l.lineItemId}`,
    advertiserId: a.advertiserId,
    campaignId: l.campaignId,
    insertionOrderId: l.insertionOrderId,
    lineItemId: l.lineItemId,
    displayName: l.displayName,
    lineItemType: "LINE_ITEM_TYPE_DISPLAY_DEFAULT",
    entityStatus: l.entityStatus,
    updateTime: "2026-11-20T10:00:00Z",
  });
  function dvList<T>(
    req: StandInRequest,
    key: string,
    items: T[],
    allowed: string[],
    match: (x: T, f: Record<string, string>) => boolean,
    json: (x: T) => Json,
  ): Reply {
    const filter = dvFilter(req.query.get("filter"), allowed);
    if (isReply(filter)) return filter;
    const p = paged(
      kit,
      req,
      items.filter((x) => match(x, filter)),
      { max: 200, fallback: 100 },
    );
    if (isReply(p)) return p;
    return { json: { ...(p.page.length && { [key]: p.page.map(json) }), ...(p.next && { nextPageToken: p.next }) } };
  }

  function dvPartners(req: StandInRequest): Reply {
    const g = dvGuard(req, "PartnerService.ListPartners");
    if (refused(g)) return g;
    return dvList(
      req,
      "partners",
      [g.state.partnerId],
      ["entityStatus"],
      (_x, f) => !f.entityStatus || f.entityStatus === "ENTITY_STATUS_ACTIVE",
      (id) => ({
        name: `partners/${id}`,
        partnerId: id,
        displayName: `${g.account} Agency`,
        entityStatus: "ENTITY_STATUS_ACTIVE",
        generalConfig: { currencyCode: "USD", timeZone: "America/New_York" },
      }),
    );
  }

  function dvAdvertisers(req: StandInRequest): Reply {
    const g = dvGuard(req, "AdvertiserService.ListAdvertisers");
    if (refused(g)) return g;
    const partner = req.query.get("partnerId");
    if (!partner) return badRequest("Must set exactly one of partner_id or advertiser_id.", "partner_id");
    if (partner !== g.state.partnerId) return denied();
    return dvList(
      req,
      "advertisers",
      g.state.advertisers,
      ["entityStatus"],
      (_a, f) => !f.entityStatus || f.entityStatus === "ENTITY_STATUS_ACTIVE",
      (a) => ({
        name: `advertisers/${a.advertiserId}`,
        advertiserId: a.advertiserId,
        partnerId: g.state.partnerId,
        displayName: a.displayName,
        entityStatus: "ENTITY_STATUS_ACTIVE",
        generalConfig: { domainUrl: "https://shop.example.com", timeZone: "America/New_York", currencyCode: "USD" },
      }),
    );
  }

  function dvCampaigns(req: StandInRequest): Reply {
    const g = dvGuard(req, "CampaignService.ListCampaigns");
    if (refused(g)) return g;
    const a = advertiserOf(req, g.state);
    if (!a) return denied();
    return dvList(
      req,
      "campaigns",
      [a],
      ["entityStatus"],
      (_x, f) => !f.entityStatus || f.entityStatus === "ENTITY_STATUS_ACTIVE",
      (x) => ({
        name: `advertisers/${x.advertiserId}/campaigns/${x.campaignId}`,
        advertiserId: x.advertiserId,
        campaignId: x.campaignId,
        displayName: `${x.displayName} — always on`,
        entityStatus: "ENTITY_STATUS_ACTIVE",
        campaignGoal: { campaignGoalType: "CAMPAIGN_GOAL_TYPE_BRAND_AWARENESS" },
        campaignFlight: { plannedDates: { startDate: { year: 2026, month: 1, day: 1 } } },
      }),
    );
  }

  function dvInsertionOrders(req: StandInRequest): Reply {
    const g = dvGuard(req, "InsertionOrderService.ListInsertionOrders");
    if (refused(g)) return g;
    const a = advertiserOf(req, g.state);
    if (!a) return denied();
    return dvList(
      req,
      "insertionOrders",
      a.insertionOrderIds,
      ["entityStatus", "campaignId"],
      (_id, f) =>
        (!f.entityStatus || f.entityStatus === "ENTITY_STATUS_ACTIVE") &&
        (!f.campaignId || f.campaignId === a.campaignId),
      (id) => ({
        name: `advertisers/${a.advertiserId}/insertionOrders/${id}`,
        advertiserId: a.advertiserId,
        campaignId: a.campaignId,
        insertionOrderId: id,
        displayName: `IO ${a.insertionOrderIds.indexOf(id) + 1}`,
        entityStatus: "ENTITY_STATUS_ACTIVE",
        pacing: { pacingPeriod: "PACING_PERIOD_FLIGHT", pacingType: "PACING_TYPE_EVEN" },
      }),
    );
  }

  function dvLineItems(req: StandInRequest): Reply {
    const g = dvGuard(req, "LineItemService.ListLineItems");
    if (refused(g)) return g;
    const a = advertiserOf(req, g.state);
    if (!a) return denied();
    return dvList(
      req,
      "lineItems",
      a.lineItems,
      ["entityStatus", "campaignId", "insertionOrderId", "lineItemType"],
      (l, f) =>
        (!f.entityStatus || f.entityStatus === l.entityStatus) &&
        (!f.campaignId || f.campaignId === l.campaignId) &&
        (!f.insertionOrderId || f.insertionOrderId === l.insertionOrderId),
      (l) => lineItemJson(a, l),
    );
  }

  function dvLineItem(req: StandInRequest): Reply {
    const g = dvGuard(req, "LineItemService.GetLineItem");
    if (refused(g)) return g;
    const a = advertiserOf(req, g.state);
    if (!a) return denied();
    const l = a.lineItems.find((x) => x.lineItemId === req.params.lineItem);
    return l ? { json: lineItemJson(a, l) } : notFound();
  }

  function dvPatchLineItem(req: StandInRequest): Reply {
    const g = dvGuard(req, "LineItemService.UpdateLineItem");
    if (refused(g)) return g;
    const a = advertiserOf(req, g.state);
    if (!a) return denied();
    const l = a.lineItems.find((x) => x.lineItemId === req.params.lineItem);
    if (!l) return notFound();
    const mask = req.query.get("updateMask");
    if (!mask) return badRequest("Request contains an invalid argument.", "update_mask", "Field is required");
    if (mask.split(",").some((f) => f !== "entityStatus" && f !== "entity_status" && f !== "displayName"))
      return badRequest("Request contains an invalid argument.", "update_mask", `Invalid field mask: ${mask}`);
    const body = (req.json ?? {}) as { entityStatus?: unknown; displayName?: unknown };
    if (/entity/.test(mask)) {
      const v = body.entityStatus;
      if (
        typeof v !== "string" ||
        !["ENTITY_STATUS_ACTIVE", "ENTITY_STATUS_PAUSED", "ENTITY_STATUS_ARCHIVED"].includes(v)
      )
        return badRequest(
          `Invalid value at 'line_item.entity_status' (type.googleapis.com/google.ads.displayvideo.v4.EntityStatus), ${JSON.stringify(v ?? null)}`,
          "line_item.entity_status",
        );
      if (l.entityStatus === "ENTITY_STATUS_ARCHIVED" && v !== "ENTITY_STATUS_ARCHIVED")
        return badRequest("An archived line item cannot be activated or paused.", "line_item.entity_status");
      l.entityStatus = v;
    }
    if (/displayName/.test(mask) && typeof body.displayName === "string") l.displayName = body.displayName;
    return { json: lineItemJson(a, l) };
  }

  return {
    "GET /accounts/v1/accounts": merchantAccounts,
    "GET /products/v1/accounts/{account}/products": merchantProducts,
    "GET /products/v1/accounts/{account}/products/{product}": merchantProduct,
    "PATCH /products/v1/accounts/{account}/productInputs/{product}": merchantPatch,
    "GET /v1/accounts": gbpAccounts,
    "GET /v1/accounts/{account}/locations": gbpLocations,
    "GET /v4/accounts/{account}/locations/{location}/reviews": gbpReviews,
    "GET /v4/accounts/{account}/locations/{location}/reviews/{review}": gbpReview,
    "PUT /v4/accounts/{account}/locations/{location}/reviews/{review}/reply": gbpReply,
    "GET /youtube/v3/channels": ytChannels,
    "GET /youtube/v3/playlistItems": ytPlaylistItems,
    "GET /youtube/v3/videos": ytVideos,
    "PUT /youtube/v3/videos": ytUpdate,
    "GET /v2/reports": ytReports,
    "GET /v4/partners": dvPartners,
    "GET /v4/advertisers": dvAdvertisers,
    "GET /v4/advertisers/{advertiser}/campaigns": dvCampaigns,
    "GET /v4/advertisers/{advertiser}/insertionOrders": dvInsertionOrders,
    "GET /v4/advertisers/{advertiser}/lineItems": dvLineItems,
    "GET /v4/advertisers/{advertiser}/lineItems/{lineItem}": dvLineItem,
    "PATCH /v4/advertisers/{advertiser}/lineItems/{lineItem}": dvPatchLineItem,
  };
}

export const marketing: GoogleExtension = {
  types: ["google_merchant", "google_business_profile", "youtube", "dv360"],
  scopes: Object.values(SCOPE),
  routes,
};
