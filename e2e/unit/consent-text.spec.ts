import { test, expect } from "@playwright/test";
import { consentFacts, type TypeFacts } from "../support/consent-facts";

// The consent text an account's owner reads before connecting (the hosted connect page, the
// type's docs page) holds to the grant: every operation the catalogue runs on a type is named
// there, writes under "Can change"; every scope the type asks for says what it allows, is the
// scope the authorize URL sends, and a scope that can change things comes with named writes.

const facts = consentFacts();
const byType = new Map(facts.types.map((t) => [t.type, t]));
const type = (name: string): TypeFacts => {
  const t = byType.get(name);
  if (!t) throw new Error(`no connection type ${name}`);
  return t;
};
const oauthTypes = facts.types.filter((t) => t.oauth);

test("the catalogue and the registry are read: sandbox, HubSpot, Meta and the ad platforms carry writes", () => {
  for (const name of [
    "sandbox_oauth",
    "hubspot",
    "meta_ads",
    "linkedin_ads",
    "tiktok_ads",
    "slack",
    "gads",
    "klaviyo",
  ]) {
    expect(
      type(name).operations.some((op) => op.kind === "write"),
      name,
    ).toBe(true);
  }
  expect(oauthTypes.length).toBeGreaterThanOrEqual(10);
});

test("every write has a consent phrase, and so does every read that runs on a connection", () => {
  const missing = facts.operations
    .filter((op) => op.kind === "write" || op.types.length > 0)
    .filter((op) => !op.consent?.trim())
    .map((op) => `${op.id} (${op.kind})`);
  expect(missing).toEqual([]);
});

test("each type's consent text covers every operation on it: reads under 'Can read', writes under 'Can change'", () => {
  const problems: string[] = [];
  for (const t of facts.types) {
    const { reads, writes } = t.consent;
    for (const op of t.operations) {
      const phrase = op.consent?.trim() ?? "";
      const group = op.kind === "write" ? writes : reads;
      if (!phrase || !group.includes(phrase))
        problems.push(
          `${t.type}: the ${op.kind} ${op.id} is not named under ${op.kind === "write" ? "Can change" : "Can read"}`,
        );
      // A write's words never sit among the reads, where the owner would take them for one.
      if (op.kind === "write" && reads.includes(phrase))
        problems.push(`${t.type}: the write ${op.id} is listed as a read`);
    }
    const hasWrites = t.operations.some((op) => op.kind === "write");
    if (hasWrites !== writes.length > 0)
      problems.push(
        `${t.type}: "Can change" lists [${writes.join("; ")}] for ${hasWrites ? "its writes" : "no write"}`,
      );
    if (new Set([...reads, ...writes]).size !== reads.length + writes.length)
      problems.push(`${t.type}: a line is repeated`);
  }
  expect(problems).toEqual([]);
});

test("the writes of the finding are named in plain words", () => {
  expect(type("sandbox_oauth").consent.writes).toContain("Set a note on your sandbox account");
  expect(type("hubspot").consent.writes).toContain("Create and update contacts");
  expect(type("slack").consent.writes).toContain("Post messages to channels");
  expect(type("klaviyo").consent.writes).toContain("Add profiles to lists");
  expect(type("meta_ads").consent.writes).toEqual([
    "Pause and activate campaigns, ad sets and ads",
    "Change the daily budgets of campaigns and ad sets",
  ]);
  for (const name of ["linkedin_ads", "tiktok_ads", "gads"])
    expect(type(name).consent.writes[0], name).toMatch(/^Pause/);
  // Read-only types say nothing about changing.
  for (const name of ["ga4", "gsc", "stripe"]) expect(type(name).consent.writes, name).toEqual([]);
  expect(type("shopify").consent.writes).toEqual(["Change your products' status", "Create discount codes"]);
});

test("every scope a type asks for says what it allows, and is the scope its authorize URL sends", () => {
  const problems: string[] = [];
  for (const t of oauthTypes) {
    const oauth = t.oauth!;
    for (const s of oauth.scopes)
      if (!s.allows.trim()) problems.push(`${t.type}: scope ${s.name} says nothing about what it allows`);
    // A provider that grants the permissions set on the app (TikTok) is sent none.
    const listed = oauth.scopesSetOnApp ? [] : oauth.scopes.map((s) => s.name);
    if (oauth.sent.join(" ") !== listed.join(" "))
      problems.push(
        `${t.type}: the authorize URL asks for [${oauth.sent.join(" ")}], the consent text lists [${listed.join(" ")}]`,
      );
    if (!oauth.scopes.length) problems.push(`${t.type}: lists no scope or permission`);
  }
  expect(problems).toEqual([]);
});

test("scopes and writes agree: a scope that can change things comes with named writes, and a type the catalogue writes through asks for one", () => {
  const problems: string[] = [];
  // How providers name scopes that can change things (Google Ads' one scope is read-write, and so is
  // Sheets' spreadsheets, whose name merely contains "read").
  const writeName = /write|^rw_|manage|^https:\/\/www\.googleapis\.com\/auth\/(adwords|spreadsheets)$/i;
  const readName = /read|^r_/i;
  for (const t of oauthTypes) {
    const changing = t.consent.scopes.filter((s) => s.changes);
    for (const s of t.consent.scopes) {
      if (writeName.test(s.name) && !s.changes)
        problems.push(`${t.type}: scope ${s.name} can change things but is not marked so`);
      if (!writeName.test(s.name) && readName.test(s.name) && s.changes)
        problems.push(`${t.type}: read scope ${s.name} is marked as changing things`);
    }
    if (changing.length > 0 && t.consent.writes.length === 0)
      problems.push(`${t.type}: asks for ${changing.map((s) => s.name).join(", ")} but names no write`);
    if (t.consent.writes.length > 0 && changing.length === 0)
      problems.push(`${t.type}: the catalogue writes through it, but it asks for no scope that allows a change`);
  }
  expect(problems).toEqual([]);
});

test("the scope each catalogue write needs is asked for, and shown as one that can change things", () => {
  // The scope the provider checks for each platform's writes (its API refuses them without it).
  const needed: Record<string, string> = {
    sandbox_oauth: "sandbox.write",
    hubspot: "crm.objects.contacts.write",
    slack: "chat:write",
    linkedin_ads: "rw_ads",
    meta_ads: "ads_management",
    gads: "https://www.googleapis.com/auth/adwords",
    tiktok_ads: "Ads Management",
  };
  for (const [name, scope] of Object.entries(needed)) {
    expect(
      type(name).consent.scopes.find((s) => s.name === scope),
      `${name} asks for ${scope}`,
    ).toMatchObject({ changes: true });
  }
});

test("the docs page's generated section lists the same reads, writes and scopes", () => {
  const sandbox = type("sandbox_oauth");
  const md = sandbox.markdown;
  for (const line of [...sandbox.consent.reads, ...sandbox.consent.writes]) expect(md).toContain(`- ${line}`);
  for (const s of sandbox.consent.scopes) expect(md).toContain(`\`${s.name}\``);
  expect(md.indexOf("- Set a note on your sandbox account")).toBeGreaterThan(md.indexOf("**Can change**"));
  expect(md.indexOf("**Can change**")).toBeGreaterThan(md.indexOf("**Can read**"));
});
