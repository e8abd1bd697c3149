import { createHash, randomBytes, randomUUID } from "node:crypto";
import { deflateRawSync } from "node:zlib";
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

// Stand-in for Microsoft Advertising (microsoft_ads): the Microsoft identity platform v2.0
// authorize and token endpoints of the `common` tenant and the Bing Ads API v13 REST (JSON)
// operations, at their real paths, in Microsoft's wire format. OAuth only: the app is
// testClient("MICROSOFT"); the developer token it accepts is MICROSOFT_DEVELOPER_TOKEN (put into
// the server's MICROSOFT_ADS_DEVELOPER_TOKEN).
//
// - GET /common/oauth2/v2.0/authorize (client_id, response_type=code, redirect_uri …/oauth/callback,
//   scope with https://ads.microsoft.com/msads.manage, state; code_challenge S256 kept for the token
//   call); authorizeControls; deny → error=access_denied (AADSTS65004).
// - POST /common/oauth2/v2.0/token (form, client_secret_post): authorization_code (redirect_uri and
//   code_verifier checked; AADSTS errors as {error, error_description, error_codes, …}),
//   refresh_token (OAuthBook: `bad…` → invalid_grant AADSTS70000; each refresh returns a refresh
//   token, as Microsoft rotates them). Tokens last 3600 s; access tokens are at_<account>_<hex>.
// - Every API call: Authorization: Bearer <token the stand-in issued> else 401 AdApiFaultDetail
//   105 InvalidCredentials; DeveloperToken header = MICROSOFT_DEVELOPER_TOKEN else 401 105.
//   Errors are flat ApplicationFaults {TrackingId, Type, Errors | OperationErrors | BatchErrors}.
// - POST /CustomerManagement/v13/User/Query ({UserId: null}): the user (Id, UserName, ContactInfo.Email)
//   and one CustomerRole (CustomerId, AccountIds of the user's two ad accounts). Identity: no rate limit.
// - Operation routes (each answers 429 + ApiFaultDetail 117 CallRateExceeded, Retry-After "1" for
//   `throttled-once…` accounts, "60" for `throttled…`, when RateLimits says so):
//   - POST /CustomerManagement/v13/AccountsInfo/Query {CustomerId, OnlyParentAccounts} with a
//     CustomerId header: the two accounts {Id, Name, Number, AccountLifeCycleStatus, PauseReason}.
//     Another customer → 400 106 UserIsNotAuthorized.
//   - Campaign Management (CustomerId and CustomerAccountId headers required: 1029 / 1030; the
//     header must name the body's AccountId and an account of the user, else 106):
//     POST /CampaignManagement/v13/Campaigns/QueryByAccountId {AccountId, CampaignType flags "A,B"}:
//     the account's campaigns of those types (all are Search). Three per account, IDs
//     digits("<account>/campaign/<i>", 9): "Brand - US" Active 50, "Generic - EU" Active 25 on a
//     shared budget (BudgetId), "Remarketing" Paused 10, all DailyBudgetStandard.
//     POST …/Campaigns/QueryByIds {AccountId, CampaignIds (1-100), CampaignType}: Campaigns in the
//     order asked (null where unknown) and PartialErrors (1100 CampaignServiceInvalidCampaignId).
//     PUT …/Campaigns {AccountId, Campaigns: [{Id, Status?, DailyBudget?}] (1-100)}: applies each
//     valid item and answers {PartialErrors}: unknown Id 1100, Status other than Active/Paused 1120,
//     DailyBudget ≤ 0 1106, DailyBudget on a shared budget 1159 CampaignServiceCannotUpdateSharedBudget.
//   - Reporting: POST /Reporting/v13/GenerateReport/Submit {ReportRequest: {Type:
//     CampaignPerformanceReportRequest, Columns, Aggregation, Scope.AccountIds, Time.CustomDateRange*}}
//     → {ReportRequestId} (the report is made at once; 2001, 2015, 2034, 2035, 2009/2010/2040 for bad
//     requests); POST …/GenerateReport/Poll {ReportRequestId} → {ReportRequestStatus: {Status:
//     Success, ReportDownloadUrl: https://bingadsappsstorageprod.blob.core.windows.net/reports/<id>.zip?…}}
//     (2100 for an unknown id); GET /reports/<id>.zip serves the ZIP (one CSV: column headers, one
//     row per campaign of the scope × day with TimePeriod, numbers derived from the IDs).

const CLIENT = testClient("MICROSOFT");
export const MICROSOFT_DEVELOPER_TOKEN = "test-msads-developer-token";
const MSADS_SCOPE = "https://ads.microsoft.com/msads.manage";
const DOWNLOAD_HOST = "https://bingadsappsstorageprod.blob.core.windows.net";

const msDigits = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
const hashInt = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;

/** The user, customer and ad accounts of a stand-in account (the authorize page's `account`). */
export function msadsFacts(account: string) {
  return {
    userId: msDigits(`user:${account}`, 9),
    customerId: msDigits(`customer:${account}`, 9),
    accountIds: [msDigits(`acct:${account}:1`, 9), msDigits(`acct:${account}:2`, 9)],
  };
}
/** The first digits of the report IDs made for an account. */
export const msadsReportTag = (account: string) => msDigits(`report-owner:${account}`, 9);
/** The campaign IDs of an ad account: Brand - US, Generic - EU (shared budget), Remarketing (paused). */
export const msadsCampaignIds = (adAccount: string) => [0, 1, 2].map((i) => msDigits(`${adAccount}/campaign/${i}`, 9));

const tokenError = (status: number, error: string, code: number, text: string): Reply => ({
  status,
  json: {
    error,
    error_description: `AADSTS${code}: ${text} Trace ID: ${randomUUID()} Correlation ID: ${randomUUID()} Timestamp: ${new Date().toISOString().replace("T", " ").slice(0, 19)}Z`,
    error_codes: [code],
    timestamp: new Date().toISOString().replace("T", " ").slice(0, 19) + "Z",
    trace_id: randomUUID(),
    correlation_id: randomUUID(),
  },
});
const errorPage = (text: string): Reply => ({ status: 400, text: `Sign in to your account\n\n${text}\n` });

type Err = { Code: number; ErrorCode: string; Message: string; Index?: number };
const authFault = (e: Err): Reply => ({
  status: 401,
  json: { TrackingId: randomUUID(), Type: "AdApiFaultDetail", Errors: [{ ...e, Details: null }] },
});
const opFault = (status: number, e: Err): Reply => ({
  status,
  json: {
    TrackingId: randomUUID(),
    Type: "ApiFaultDetail",
    OperationErrors: [{ ...e, Details: null }],
    BatchErrors: [],
  },
});
const batch = (index: number, Code: number, ErrorCode: string, Message: string) => ({
  Code,
  Details: null,
  ErrorCode,
  FieldPath: null,
  ForwardCompatibilityMap: null,
  Index: index,
  Message,
  Type: "BatchError",
});

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const byte of b) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A ZIP archive of one deflated file, as the Reporting API serves its reports. */
function zipOf(name: string, data: Buffer): Buffer {
  const packed = deflateRawSync(data);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE(0, 42);
  const centralAt = local.length + fileName.length + packed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, fileName, packed, central, fileName, end]);
}

const CAMPAIGN_TYPES = ["Search", "Shopping", "DynamicSearchAds", "Audience", "PerformanceMax", "Hotel", "App"];
const REPORT_COLUMNS = new Set([
  "TimePeriod",
  "AccountId",
  "AccountName",
  "CampaignId",
  "CampaignName",
  "CampaignStatus",
  "Impressions",
  "Clicks",
  "Ctr",
  "AverageCpc",
  "Spend",
  "Conversions",
  "ConversionRate",
  "CostPerConversion",
  "Revenue",
  "ReturnOnAdSpend",
]);

type Campaign = { Id: string; Name: string; Status: string; DailyBudget: number; BudgetId: string | null };

function start() {
  const book = new OAuthBook();
  const rateLimits = new RateLimits();
  const campaigns = new Map<string, Campaign[]>(); // ad account → its campaigns
  const reports = new Map<string, { zip: Buffer }>();

  /** Access tokens name their account (`at_<account>_<hex>`), so a test finds its own calls in the journal. */
  function issueAccessToken(account: string, scope: string): string {
    const token = `at_${account}_${randomBytes(8).toString("hex")}`;
    book.accessTokens.set(token, { account, scope });
    return token;
  }

  function campaignsOf(adAccount: string): Campaign[] {
    if (!campaigns.has(adAccount)) {
      const [a, b, c] = msadsCampaignIds(adAccount);
      campaigns.set(adAccount, [
        { Id: a, Name: "Brand - US", Status: "Active", DailyBudget: 50, BudgetId: null },
        {
          Id: b,
          Name: "Generic - EU",
          Status: "Active",
          DailyBudget: 25,
          BudgetId: msDigits(`${adAccount}/budget`, 9),
        },
        { Id: c, Name: "Remarketing", Status: "Paused", DailyBudget: 10, BudgetId: null },
      ]);
    }
    return campaigns.get(adAccount)!;
  }

  const campaignJson = (c: Campaign) => ({
    BiddingScheme: { Type: "EnhancedCpc" },
    BudgetId: c.BudgetId,
    BudgetType: "DailyBudgetStandard",
    CampaignType: "Search",
    DailyBudget: c.DailyBudget,
    Id: c.Id,
    Languages: ["All"],
    Name: c.Name,
    Status: c.Status,
    SubType: null,
    TimeZone: "PacificTimeUSCanadaTijuana",
  });

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId)
      return errorPage(
        `AADSTS700016: Application with identifier '${q.get("client_id") ?? ""}' was not found in the directory 'Microsoft Accounts'.`,
      );
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage(
        "AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.",
      );
    }
    if (q.get("response_type") !== "code")
      return errorPage("AADSTS900144: The request body must contain the following parameter: 'response_type'.");
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scopes.includes(MSADS_SCOPE))
      return errorPage("AADSTS70011: The provided value for the input parameter 'scope' is not valid.");
    if (!q.get("state")) return errorPage("state is required.");
    const challenge = q.get("code_challenge");
    if (challenge && q.get("code_challenge_method") !== "S256")
      return errorPage("AADSTS501491: Invalid size of Code_Challenge parameter.");
    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "AADSTS65004: User declined to consent to access the app.");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
      back.searchParams.set("error_description", "AADSTS90100: An internal error occurred.");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: scopes.join(" "),
        codeChallenge: challenge,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function tokens(account: string, scope: string) {
    return {
      json: {
        token_type: "Bearer",
        scope,
        expires_in: 3600,
        ext_expires_in: 3600,
        access_token: issueAccessToken(account, scope),
        refresh_token: book.refreshTokenFor(account),
      },
    };
  }

  function token(req: StandInRequest): Reply {
    const f = req.form;
    if (f.get("client_id") !== CLIENT.clientId)
      return tokenError(
        400,
        "unauthorized_client",
        700016,
        `Application with identifier '${f.get("client_id") ?? ""}' was not found in the directory 'Microsoft Accounts'.`,
      );
    if (f.get("client_secret") !== CLIENT.clientSecret)
      return tokenError(401, "invalid_client", 7000215, "Invalid client secret provided.");
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error")
        return tokenError(500, "server_error", 90100, "An internal error occurred.");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", f.get("code_verifier"));
      if (typeof redeemed === "string") {
        if (redeemed.startsWith("redirect_uri"))
          return tokenError(
            400,
            "invalid_grant",
            50148,
            "The redirect_uri specified in the token request does not match the redirect_uri used in the authorization request.",
          );
        if (redeemed.startsWith("code_verifier"))
          return tokenError(
            400,
            "invalid_grant",
            501481,
            "The Code_Verifier does not match the code_challenge supplied in the authorization request.",
          );
        if (redeemed.includes("already used"))
          return tokenError(
            400,
            "invalid_grant",
            54005,
            "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.",
          );
        return tokenError(400, "invalid_grant", 70000, "The provided value for the 'code' parameter is not valid.");
      }
      return tokens(redeemed.account, MSADS_SCOPE);
    }
    if (grant === "refresh_token") {
      const g = book.grantOfRefreshToken(f.get("refresh_token") ?? "");
      if (!g)
        return tokenError(
          400,
          "invalid_grant",
          70000,
          "The user could not be authenticated or the grant is expired. The user must first sign in and if needed grant the client application access to the requested scope.",
        );
      return tokens(g.account, g.scoped ? MSADS_SCOPE : "");
    }
    return tokenError(
      400,
      "unsupported_grant_type",
      70003,
      `The app requested an unsupported grant type '${grant ?? ""}'.`,
    );
  }

  /** The grant behind an API call, or Microsoft's refusal of its credentials. */
  function caller(req: StandInRequest): { account: string } | Reply {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const t = bearer ? book.accessTokens.get(bearer) : undefined;
    const invalid = {
      Code: 105,
      ErrorCode: "InvalidCredentials",
      Message: "Authentication failed. Either supplied credentials are invalid or the account is inactive",
    };
    if (!t || !t.scope.includes(MSADS_SCOPE)) return authFault(invalid);
    if (req.headers.developertoken !== MICROSOFT_DEVELOPER_TOKEN) return authFault(invalid);
    return { account: t.account };
  }

  const throttled = (account: string): Reply | null =>
    rateLimits.limited(account)
      ? {
          ...opFault(429, {
            Code: 117,
            ErrorCode: "CallRateExceeded",
            Message:
              "You have exceeded the number of calls that you are allowed to make in a minute. Please reduce the number of calls that you make per minute.",
          }),
          headers: { "retry-after": account.startsWith("throttled-once") ? "1" : "60" },
        }
      : null;

  const notAuthorized = () =>
    opFault(400, {
      Code: 106,
      ErrorCode: "UserIsNotAuthorized",
      Message: "The user is not authorized to perform this action.",
    });

  function getUser(req: StandInRequest): Reply {
    const c = caller(req);
    if (!("account" in c)) return c;
    const f = msadsFacts(c.account);
    const asked = (req.json as { UserId?: unknown } | null)?.UserId;
    if (asked !== undefined && asked !== null && String(asked) !== f.userId) return notAuthorized();
    return {
      json: {
        User: {
          ContactInfo: { Email: `${c.account}@example.com`, Id: msDigits(`contact:${c.account}`, 9) },
          CustomerId: f.customerId,
          Id: f.userId,
          Lcid: "EnglishUS",
          Name: { FirstName: c.account, LastName: "Tester", MiddleInitial: null },
          UserLifeCycleStatus: "Active",
          UserName: c.account,
        },
        CustomerRoles: [
          {
            AccountIds: f.accountIds,
            CustomerId: f.customerId,
            CustomerLinkPermission: null,
            LinkedAccountIds: null,
            RoleId: 41,
          },
        ],
      },
    };
  }

  function accountsInfo(req: StandInRequest): Reply {
    const c = caller(req);
    if (!("account" in c)) return c;
    const limited = throttled(c.account);
    if (limited) return limited;
    const f = msadsFacts(c.account);
    const asked = (req.json as { CustomerId?: unknown } | null)?.CustomerId;
    if (asked !== undefined && asked !== null && String(asked) !== f.customerId) return notAuthorized();
    return {
      json: {
        AccountsInfo: f.accountIds.map((id, i) => ({
          AccountLifeCycleStatus: "Active",
          Id: id,
          Name: i === 0 ? "Main account" : "Second account",
          Number: `F${msDigits(`number:${id}`, 6)}`,
          PauseReason: null,
        })),
      },
    };
  }

  /** Caller, rate limit, the CustomerId / CustomerAccountId headers and the body's AccountId. */
  function accountCall(req: StandInRequest): { account: string; adAccount: string } | Reply {
    const c = caller(req);
    if (!("account" in c)) return c;
    const limited = throttled(c.account);
    if (limited) return limited;
    const f = msadsFacts(c.account);
    const customer = String(req.headers.customerid ?? "");
    const header = String(req.headers.customeraccountid ?? "");
    if (!customer)
      return opFault(400, {
        Code: 1029,
        ErrorCode: "CampaignServiceCustomerIdHasToBeSpecified",
        Message: "The CustomerId element must be specified for this operation.",
      });
    if (!header)
      return opFault(400, {
        Code: 1030,
        ErrorCode: "CampaignServiceAccountIdHasToBeSpecified",
        Message: "The CustomerAccountId element must be specified for this operation.",
      });
    const body = (req.json ?? {}) as { AccountId?: unknown };
    if (body.AccountId !== undefined && String(body.AccountId) !== header)
      return opFault(400, {
        Code: 1102,
        ErrorCode: "CampaignServiceInvalidAccountId",
        Message: "The account identifier is not valid.",
      });
    if (customer !== f.customerId || !f.accountIds.includes(header)) return notAuthorized();
    return { account: c.account, adAccount: header };
  }

  function typesOf(value: unknown): string[] | Reply {
    const types = typeof value === "string" && value ? value.split(",").map((s) => s.trim()) : ["Search"];
    if (types.some((t) => !CAMPAIGN_TYPES.includes(t)))
      return opFault(400, {
        Code: 0,
        ErrorCode: "InvalidCampaignType",
        Message: `The campaign type '${String(value)}' is not valid.`,
      });
    return types;
  }

  function campaignsByAccount(req: StandInRequest): Reply {
    const a = accountCall(req);
    if (!("adAccount" in a)) return a;
    const types = typesOf((req.json as { CampaignType?: unknown } | null)?.CampaignType);
    if (!Array.isArray(types)) return types;
    return { json: { Campaigns: types.includes("Search") ? campaignsOf(a.adAccount).map(campaignJson) : [] } };
  }

  function campaignsByIds(req: StandInRequest): Reply {
    const a = accountCall(req);
    if (!("adAccount" in a)) return a;
    const b = (req.json ?? {}) as { CampaignIds?: unknown; CampaignType?: unknown };
    if (!Array.isArray(b.CampaignIds) || b.CampaignIds.length < 1 || b.CampaignIds.length > 100)
      return opFault(400, {
        Code: 1113,
        ErrorCode: "CampaignServiceCampaignsArrayShouldNotBeNullOrEmpty",
        Message: "The array of campaigns is null or empty.",
      });
    const types = typesOf(b.CampaignType);
    if (!Array.isArray(types)) return types;
    const own = campaignsOf(a.adAccount);
    const found = b.CampaignIds.map((id) => own.find((c) => c.Id === String(id) && types.includes("Search")) ?? null);
    return {
      json: {
        Campaigns: found.map((c) => (c ? campaignJson(c) : null)),
        PartialErrors: found.map((c, i) =>
          c ? null : batch(i, 1100, "CampaignServiceInvalidCampaignId", "The campaign identifier is not valid."),
        ),
      },
    };
  }

  function updateCampaigns(req: StandInRequest): Reply {
    const a = accountCall(req);
    if (!("adAccount" in a)) return a;
    const list = (req.json as { Campaigns?: unknown } | null)?.Campaigns;
    if (!Array.isArray(list) || list.length < 1 || list.length > 100)
      return opFault(400, {
        Code: 1113,
        ErrorCode: "CampaignServiceCampaignsArrayShouldNotBeNullOrEmpty",
        Message: "The array of campaigns is null or empty.",
      });
    const own = campaignsOf(a.adAccount);
    const errors: ReturnType<typeof batch>[] = [];
    list.forEach((item: { Id?: unknown; Status?: unknown; DailyBudget?: unknown }, i) => {
      const c = own.find((x) => x.Id === String(item?.Id ?? ""));
      if (!c)
        return errors.push(batch(i, 1100, "CampaignServiceInvalidCampaignId", "The campaign identifier is not valid."));
      if (item.Status !== undefined && item.Status !== "Active" && item.Status !== "Paused")
        return errors.push(
          batch(
            i,
            1120,
            "CampaignServiceInvalidCampaignStatus",
            "The campaign status is not valid for the requested operation.",
          ),
        );
      if (item.DailyBudget !== undefined) {
        if (c.BudgetId)
          return errors.push(
            batch(
              i,
              1159,
              "CampaignServiceCannotUpdateSharedBudget",
              "You cannot update shared budget through Campaign Entity, please use Budget entity to update shared budget.",
            ),
          );
        if (typeof item.DailyBudget !== "number" || !(item.DailyBudget > 0))
          return errors.push(
            batch(i, 1106, "CampaignServiceInvalidDailyBudget", "The campaign daily budget is not valid."),
          );
      }
      if (item.Status !== undefined) c.Status = String(item.Status);
      if (typeof item.DailyBudget === "number") c.DailyBudget = item.DailyBudget;
    });
    return { json: { PartialErrors: errors } };
  }

  function submitReport(req: StandInRequest): Reply {
    const a = accountCall(req);
    if (!("adAccount" in a)) return a;
    const r = (req.json as { ReportRequest?: Record<string, unknown> } | null)?.ReportRequest;
    if (!r || r.Type !== "CampaignPerformanceReportRequest")
      return opFault(400, {
        Code: 2001,
        ErrorCode: "ReportingServiceNullReportRequest",
        Message: "The report request is null.",
      });
    const columns = Array.isArray(r.Columns) ? r.Columns.map(String) : [];
    if (!columns.length || columns.some((c) => !REPORT_COLUMNS.has(c)))
      return opFault(400, {
        Code: 2015,
        ErrorCode: "ReportingServiceRequiredColumnsNotSelected",
        Message: "The list of columns to include in the report must contain all required columns.",
      });
    const aggregation = String(r.Aggregation ?? "Summary");
    if (aggregation === "Summary" && columns.includes("TimePeriod"))
      return opFault(400, {
        Code: 2034,
        ErrorCode: "ReportingServiceInvalidTimePeriodColumnForSummaryReport",
        Message: "The TimePeriod column cannot be specified in a report request that has a summary aggregation.",
      });
    const scope = (r.Scope ?? {}) as { AccountIds?: unknown };
    const ids = Array.isArray(scope.AccountIds) ? scope.AccountIds.map(String) : [];
    const own = msadsFacts(a.account).accountIds;
    if (!ids.length || ids.some((id) => !own.includes(id)))
      return opFault(400, {
        Code: 2035,
        ErrorCode: "ReportingServiceInvalidAccountIds",
        Message: "The report request contains at least one account identifier that is not valid.",
      });
    const time = (r.Time ?? {}) as {
      CustomDateRangeStart?: Record<string, number>;
      CustomDateRangeEnd?: Record<string, number>;
    };
    const day = (d: Record<string, number> | undefined) =>
      d && Number.isInteger(d.Year) && Number.isInteger(d.Month) && Number.isInteger(d.Day)
        ? Date.UTC(d.Year, d.Month - 1, d.Day)
        : NaN;
    const from = day(time.CustomDateRangeStart);
    const to = day(time.CustomDateRangeEnd);
    if (Number.isNaN(from))
      return opFault(400, {
        Code: 2009,
        ErrorCode: "ReportingServiceInvalidCustomDateRangeStart",
        Message: "The report time contains a custom date range start value that is not valid.",
      });
    if (Number.isNaN(to))
      return opFault(400, {
        Code: 2010,
        ErrorCode: "ReportingServiceInvalidCustomDateRangeEnd",
        Message: "The report time contains a custom date range end value that is not valid.",
      });
    if (from > to)
      return opFault(400, {
        Code: 2040,
        ErrorCode: "ReportingServiceInvalidCustomDateRange",
        Message: "The report time contains a date in the custom date range that is not valid.",
      });
    const days: string[] = [];
    if (aggregation === "Daily" && columns.includes("TimePeriod"))
      for (let d = from; d <= to && days.length < 400; d += 86_400_000)
        days.push(new Date(d).toISOString().slice(0, 10));
    const rows: string[][] = [];
    for (const adAccount of ids)
      for (const c of campaignsOf(adAccount))
        for (const d of days.length ? days : [null]) {
          const seed = `${adAccount}/${c.Id}/${d ?? `${from}..${to}`}`;
          const impressions = 500 + hashInt(`${seed}/i`, 20000);
          const clicks = hashInt(`${seed}/c`, Math.floor(impressions / 20));
          const spend = hashInt(`${seed}/s`, 40000) / 100;
          const conversions = hashInt(`${seed}/v`, 30);
          const revenue = conversions * 25;
          const values: Record<string, string> = {
            TimePeriod: d ?? "",
            AccountId: adAccount,
            AccountName: "Main account",
            CampaignId: c.Id,
            CampaignName: c.Name,
            CampaignStatus: c.Status,
            Impressions: String(impressions),
            Clicks: String(clicks),
            Ctr: ((clicks / impressions) * 100).toFixed(2),
            AverageCpc: clicks ? (spend / clicks).toFixed(2) : "0.00",
            Spend: spend.toFixed(2),
            Conversions: String(conversions),
            ConversionRate: clicks ? ((conversions / clicks) * 100).toFixed(2) : "0.00",
            CostPerConversion: conversions ? (spend / conversions).toFixed(2) : "0.00",
            Revenue: revenue.toFixed(2),
            ReturnOnAdSpend: spend ? (revenue / spend).toFixed(2) : "0.00",
          };
          rows.push(columns.map((col) => values[col]));
        }
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const csv = `\uFEFF${[columns, ...rows].map((line) => line.map(quote).join(",")).join("\r\n")}\r\n`;
    // The ID starts with a tag of the account (msadsReportTag), so a test finds its own download.
    const id = `${msadsReportTag(a.account)}${msDigits(`report:${randomUUID()}`, 8)}`;
    reports.set(id, { zip: zipOf(`${id}.csv`, Buffer.from(csv, "utf8")) });
    return { json: { ReportRequestId: id } };
  }

  function pollReport(req: StandInRequest): Reply {
    const a = accountCall(req);
    if (!("adAccount" in a)) return a;
    const id = String((req.json as { ReportRequestId?: unknown } | null)?.ReportRequestId ?? "");
    if (!reports.has(id))
      return opFault(400, {
        Code: 2100,
        ErrorCode: "ReportingServiceInvalidReportId",
        Message: "The report identifier is not valid.",
      });
    return {
      json: {
        ReportRequestStatus: {
          ReportDownloadUrl: `${DOWNLOAD_HOST}/reports/${id}.zip?sv=2020-08-04&sr=b&se=2030-01-01T00%3A05%3A00Z&sp=r&sig=stand-in`,
          Status: "Success",
        },
      },
    };
  }

  function download(req: StandInRequest): Reply {
    const report = reports.get(req.params.id);
    if (!report || req.query.get("sig") !== "stand-in")
      return { status: 403, text: "AuthenticationFailed: Server failed to authenticate the request." };
    return { status: 200, bytes: report.zip, headers: { "content-type": "application/x-zip-compressed" } };
  }

  return startStandInServer({
    "GET /common/oauth2/v2.0/authorize": authorize,
    "POST /common/oauth2/v2.0/token": token,
    "POST /CustomerManagement/v13/User/Query": getUser,
    "POST /CustomerManagement/v13/AccountsInfo/Query": accountsInfo,
    "POST /CampaignManagement/v13/Campaigns/QueryByAccountId": campaignsByAccount,
    "POST /CampaignManagement/v13/Campaigns/QueryByIds": campaignsByIds,
    "PUT /CampaignManagement/v13/Campaigns": updateCampaigns,
    "POST /Reporting/v13/GenerateReport/Submit": submitReport,
    "POST /Reporting/v13/GenerateReport/Poll": pollReport,
    "GET /reports/{id}.zip": download,
  });
}

export const standIn: StandInModule = {
  types: ["microsoft_ads"],
  oauthProviders: ["MICROSOFT"],
  env: { MICROSOFT_ADS_DEVELOPER_TOKEN: MICROSOFT_DEVELOPER_TOKEN },
  start,
};
