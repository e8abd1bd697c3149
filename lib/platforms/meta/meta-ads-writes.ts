import "server-only";
import { z } from "zod";
import { GRAPH, graphAuth, graphGet, graphPost, isObject } from "@/lib/platforms/meta/meta-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { OperationInputError, type Operation, type OperationContext } from "@/lib/platforms/kit/operation-types";

// Meta Ads writes through the Graph API: pause or activate a campaign, an ad set or an ad, and
// change a campaign's or ad set's daily budget (POST /{id} with status or daily_budget). Graph
// node ids are global, and a POST to an ad set's id would change the ad set whatever the
// operation's name says, so every run first reads the node with a field only its own type has:
// a wrong kind of id fails there, before anything is written.

const PROVIDER = "Meta";

type Kind = "campaign" | "adset" | "ad";
type BudgetKind = Exclude<Kind, "ad">;
const KINDS = {
  // `objective` exists on campaigns only, `optimization_goal` on ad sets only, `creative` on ads
  // only (which have no budgets): https://developers.facebook.com/docs/marketing-api/reference/adgroup/
  campaign: { label: "campaign", idField: "campaign_id", typeField: "objective", example: "120210000000000001" },
  adset: { label: "ad set", idField: "adset_id", typeField: "optimization_goal", example: "120210000000000002" },
  ad: { label: "ad", idField: "ad_id", typeField: "creative", example: "120210000000000003" },
} as const;

/**
 * Currencies whose Graph amounts have no minor unit (offset 1); every other is in hundredths
 * (offset 100): https://developers.facebook.com/docs/marketing-api/currencies
 */
const OFFSET_ONE = new Set(["CLP", "COP", "CRC", "HUF", "ISK", "IDR", "JPY", "KRW", "PYG", "TWD", "VND"]);
export const offsetOf = (currency: string) => (OFFSET_ONE.has(currency) ? 1 : 100);

/** "Campaign", "Ad set", "Ad": a field's label in the editor. */
const labelOf = (kind: Kind) => `${KINDS[kind].label[0].toUpperCase()}${KINDS[kind].label.slice(1)}`;

/** "50.00 USD", "5000 JPY"; an unknown currency says so. */
const money = (amount: number, currency: string | null) =>
  currency
    ? `${amount.toFixed(offsetOf(currency) === 1 ? 0 : 2)} ${currency}`
    : `${amount.toFixed(2)} (ad account currency)`;

const nodeId = (kind: Kind) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, `must be a numeric Meta ${KINDS[kind].label} ID`)
    .describe(
      kind === "campaign"
        ? 'The campaign\'s ID, as a string of digits, e.g. "120210000000000001" (meta_ads.campaigns.list or meta_ads_insights with level campaign list campaign_id).'
        : kind === "adset"
          ? 'The ad set\'s ID, as a string of digits, e.g. "120210000000000002" (meta_ads_insights with level adset lists adset_id).'
          : 'The ad\'s ID, as a string of digits, e.g. "120210000000000003" (meta_ads.ads.list or meta_ads_insights with level ad list ad_id).',
    );

const dailyBudget = z
  .number()
  .positive()
  .max(1_000_000_000)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "must have at most 2 decimal places")
  .describe(
    "The new daily budget in the ad account's currency units, e.g. 50 or 49.99 for 50.00 / 49.99 USD a day; Patchbay converts it to the minor units (cents) Graph takes. Whole numbers only for currencies without cents (JPY, KRW …).",
  );

/** The node as Graph reports it, amounts in currency units. */
type NodeState = {
  id: string;
  name: string | null;
  status: string | null;
  effective_status: string | null;
  daily_budget: number | null;
  lifetime_budget: number | null;
  currency: string | null;
  account_id: string | null;
};

/**
 * A Graph budget ("5000", in minor units; "0" or absent when the budget is set elsewhere) in
 * currency units, or null.
 */
function budgetOf(v: unknown, currency: string | null): number | null {
  const minor = Number(v);
  if (v === undefined || v === null || v === "" || !Number.isFinite(minor) || minor <= 0) return null;
  return currency ? minor / offsetOf(currency) : null;
}

/**
 * GET /{id} with the fields of its kind: a node of another kind is refused by Graph
 * ("Tried accessing nonexisting field (objective) on node type (AdSet)"), turned into an input
 * error naming what the id really is. With `currency`, also the ad account's currency.
 */
async function readNode(
  { connection, credentials }: OperationContext,
  kind: Kind,
  id: string,
  { currency = false } = {},
): Promise<NodeState> {
  const { accessToken, proof } = graphAuth(credentials);
  const k = KINDS[kind];
  const budgets = kind === "ad" ? [] : ["daily_budget", "lifetime_budget"];
  const fields = ["name", "status", "effective_status", ...budgets, "account_id", k.typeField];
  let node: Record<string, unknown>;
  try {
    // https://developers.facebook.com/docs/marketing-api/reference/ad-campaign-group/#Reading (ad sets:
    // …/reference/ad-campaign/#Reading, ads: …/reference/adgroup/#Reading)
    node = await graphGet(
      connection.type,
      urlWith(`${GRAPH}/${id}`, { fields: fields.join(","), ...proof }),
      `the ${k.label} read`,
      accessToken,
    );
  } catch (e) {
    const wrongType =
      e instanceof ProviderRejection ? /nonexisting field \(\w+\) on node type \((\w+)\)/.exec(e.reason) : null;
    if (wrongType)
      throw new OperationInputError(
        `${id} is not a Meta ${k.label} ID: Graph says it is a node of type ${wrongType[1]}.`,
      );
    throw e;
  }
  const accountId = typeof node.account_id === "string" && node.account_id ? node.account_id : null;
  let accountCurrency: string | null = null;
  if (currency) {
    if (!accountId)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the ${k.label} read without its account_id.`);
    // https://developers.facebook.com/docs/marketing-api/reference/ad-account/#Reading
    const account = await graphGet(
      connection.type,
      urlWith(`${GRAPH}/act_${accountId}`, { fields: "currency", ...proof }),
      "the ad account read",
      accessToken,
    );
    if (typeof account.currency !== "string" || !/^[A-Z]{3}$/.test(account.currency))
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the ad account read without a currency.`);
    accountCurrency = account.currency;
  }
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  return {
    id,
    name: text(node.name),
    status: text(node.status),
    effective_status: text(node.effective_status),
    daily_budget: budgetOf(node.daily_budget, accountCurrency),
    lifetime_budget: budgetOf(node.lifetime_budget, accountCurrency),
    currency: accountCurrency,
    account_id: accountId,
  };
}

/** What the approver is shown: the node's name, delivery and (campaigns, ad sets) daily budget. */
const shown = (kind: Kind, s: NodeState) => ({
  [KINDS[kind].idField]: s.id,
  name: s.name,
  status: s.status,
  effective_status: s.effective_status,
  ...(kind !== "ad" && { daily_budget: s.daily_budget, currency: s.currency }),
  ad_account_id: s.account_id,
});

type Shown = {
  name?: string | null;
  status?: string | null;
  daily_budget?: number | null;
  currency?: string | null;
  ad_account_id?: string | null;
};
const asShown = (before: unknown): Shown => (isObject(before) ? before : {});

/** "campaign 123 'Brand — US' in ad account 456", from what `before` read when it did. */
function described(kind: Kind, id: string, before: unknown): string {
  const s = asShown(before);
  return `Meta ${KINDS[kind].label} ${id}${s.name ? ` '${s.name}'` : ""}${s.ad_account_id ? ` in ad account ${s.ad_account_id}` : ""}`;
}

/** `{campaign_id}` or `{adset_id}`: the one field naming the node. */
const idShape = (kind: Kind): Record<string, ReturnType<typeof nodeId>> => ({ [KINDS[kind].idField]: nodeId(kind) });
/** That field's value in the parsed input. */
const idOf = (kind: Kind, args: object) => String((args as Record<string, unknown>)[KINDS[kind].idField]);

function statusWrite(kind: Kind, status: "PAUSED" | "ACTIVE") {
  const k = KINDS[kind];
  const pausing = status === "PAUSED";
  const scope =
    kind === "campaign"
      ? "every ad set and ad in it stops delivering"
      : kind === "adset"
        ? "its ads stop delivering while the rest of the campaign keeps running"
        : "this one ad (creative) stops delivering while the rest of its ad set keeps running";
  const parents = { campaign: "ad sets and ads", adset: "campaign and ads", ad: "ad set and campaign" }[kind];
  return defineWrite({
    id: `meta_ads.${kind}.${pausing ? "pause" : "enable"}`,
    idempotent: true,
    // An ad is what people see on Facebook and Instagram: its title says so ("pause this facebook ad").
    title: `${pausing ? "Pause" : "Activate"} a Meta ${k.label}${kind === "ad" ? " on Facebook or Instagram" : ""}`,
    consent: "Pause and activate campaigns, ad sets and ads",
    description: pausing
      ? `Pauses one Meta (Facebook/Instagram) ${k.label} (status PAUSED): pause, stop, turn off or halt it so ${scope} and it stops spending. ` +
        `Nothing is deleted; meta_ads.${kind}.enable turns it back on. Returns the previous and new status.`
      : `Activates one Meta (Facebook/Instagram) ${k.label} (status ACTIVE): enable, resume, unpause, restart or turn on a paused ${k.label} so it delivers and spends again ` +
        `(its ${parents} must be active too). Returns the previous and new status.`,
    types: ["meta_ads"],
    credits: 1,
    input: idShape(kind),
    example: { [k.idField]: k.example },
    summarize: (args, _connection, before) => {
      const now = asShown(before).status;
      return `${pausing ? "Pause" : "Activate"} ${described(kind, idOf(kind, args), before)}${now ? ` (now ${now})` : ""}`;
    },
    output: {
      [k.idField]: z.string().describe(`${labelOf(kind)} ID`),
      name: z.string().nullable().describe(labelOf(kind)),
      previous_status: z.string().nullable().describe("Previous status"),
      status: z.enum(["PAUSED", "ACTIVE"]).describe("Status now"),
      success: z.literal(true).describe("Meta confirmed the change"),
    },
    before: async (ctx, args) => shown(kind, await readNode(ctx, kind, idOf(kind, args), { currency: kind !== "ad" })),
    async run(ctx, args) {
      const id = idOf(kind, args);
      const state = await readNode(ctx, kind, id);
      const { accessToken, proof } = graphAuth(ctx.credentials);
      const what = `the ${k.label} update`;
      // https://developers.facebook.com/docs/marketing-api/get-started/manage-campaigns (POST /{id}
      // status=PAUSED|ACTIVE; …/reference/ad-campaign-group/#Updating, ad sets
      // …/reference/ad-campaign/#Updating, ads …/reference/adgroup/#Updating)
      const body = await graphPost(
        ctx.connection.type,
        urlWith(`${GRAPH}/${id}`, proof),
        { status },
        what,
        accessToken,
      );
      if (body.success !== true)
        throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without success: true.`);
      return { [k.idField]: id, name: state.name, previous_status: state.status, status, success: true };
    },
  });
}

function budgetWrite(kind: BudgetKind) {
  const k = KINDS[kind];
  return defineWrite({
    id: `meta_ads.${kind}.update_budget`,
    idempotent: true,
    title: `Change a Meta ${k.label}'s daily budget`,
    consent: "Change the daily budgets of campaigns and ad sets",
    description:
      `Sets the daily budget of one Meta (Facebook/Instagram) ${k.label}: raise, lower, increase, decrease or change its budget, daily budget, daily spend or spend limit. ` +
      "daily_budget is in the ad account's currency units (50 means 50.00 USD a day), converted to the minor units Graph takes. " +
      (kind === "campaign"
        ? "Only for a campaign with a campaign budget (Advantage campaign budget); when its ad sets carry the budgets, use meta_ads.adset.update_budget. "
        : "Only for an ad set with a budget of its own; when the campaign carries the budget (Advantage campaign budget), use meta_ads.campaign.update_budget. ") +
      "Returns the previous and new daily budget.",
    types: ["meta_ads"],
    credits: 1,
    input: { ...idShape(kind), daily_budget: dailyBudget },
    example: { [k.idField]: k.example, daily_budget: 50 },
    summarize: (args, _connection, before) => {
      const id = idOf(kind, args);
      const s = asShown(before);
      const currency = s.currency ?? null;
      const from = typeof s.daily_budget === "number" ? ` from ${money(s.daily_budget, currency)}` : "";
      return `Change the daily budget of ${described(kind, id, before)}${from} to ${money(args.daily_budget, currency)}`;
    },
    output: {
      [k.idField]: z.string().describe(`${labelOf(kind)} ID`),
      name: z.string().nullable().describe(labelOf(kind)),
      currency: z.string().describe("Account currency, e.g. USD"),
      previous_daily_budget: z.number().describe("Previous daily budget (account currency)"),
      daily_budget: z.number().describe("New daily budget (account currency)"),
      success: z.literal(true).describe("Meta confirmed the change"),
    },
    before: async (ctx, args) => shown(kind, await readNode(ctx, kind, idOf(kind, args), { currency: true })),
    async run(ctx, args) {
      const id = idOf(kind, args);
      const state = await readNode(ctx, kind, id, { currency: true });
      const currency = state.currency!;
      if (state.daily_budget === null) {
        if (state.lifetime_budget !== null)
          throw new OperationInputError(
            `Meta ${k.label} ${id} has a lifetime budget, not a daily one; change it in Ads Manager.`,
          );
        throw new OperationInputError(
          kind === "campaign"
            ? `Meta campaign ${id} has no campaign budget: its ad sets carry the budgets. Change an ad set's with meta_ads.adset.update_budget.`
            : `Meta ad set ${id} has no budget of its own: its campaign's budget (Advantage campaign budget) applies. Change it with meta_ads.campaign.update_budget.`,
        );
      }
      const offset = offsetOf(currency);
      const minor = Math.round(args.daily_budget * offset);
      if (Math.abs(args.daily_budget * offset - minor) > 1e-6)
        throw new OperationInputError(`daily_budget must be a whole number: ${currency} amounts have no cents.`);
      const { accessToken, proof } = graphAuth(ctx.credentials);
      const what = `the ${k.label} update`;
      // https://developers.facebook.com/docs/marketing-api/bidding/overview/budgets (daily_budget
      // in minor units; POST /{id}: …/reference/ad-campaign-group/#Updating, ad sets
      // …/reference/ad-campaign/#Updating)
      const body = await graphPost(
        ctx.connection.type,
        urlWith(`${GRAPH}/${id}`, proof),
        { daily_budget: String(minor) },
        what,
        accessToken,
      );
      if (body.success !== true)
        throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without success: true.`);
      return {
        [k.idField]: id,
        name: state.name,
        currency,
        previous_daily_budget: state.daily_budget,
        daily_budget: minor / offset,
        success: true,
      };
    },
  });
}

export const operations: Operation[] = [
  statusWrite("campaign", "PAUSED"),
  statusWrite("campaign", "ACTIVE"),
  statusWrite("adset", "PAUSED"),
  statusWrite("adset", "ACTIVE"),
  statusWrite("ad", "PAUSED"),
  statusWrite("ad", "ACTIVE"),
  budgetWrite("campaign"),
  budgetWrite("adset"),
];
