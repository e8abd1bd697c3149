import "server-only";
import { findConnectionType } from "@/lib/platforms/registry";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { PLATFORMS } from "@/lib/platforms/platforms";

// The operations catalogue: the single source of every operation Patchbay runs on a provider.
// The MCP endpoint (its direct tools and its discovery tools), the Operations page, the docs
// and the approvals all read it; a new operation is one entry in its platform's folder (lib/platforms/<platform>/).

export const OPERATIONS: readonly Operation[] = PLATFORMS.flatMap((p) => p.operations);

const BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));
if (BY_ID.size !== OPERATIONS.length) throw new Error("Two operations of the catalogue share an id.");

export const findOperation = (id: string): Operation | undefined => BY_ID.get(id);

/** The operations that run on connections of `type`. */
export const operationsForType = (type: string): Operation[] => OPERATIONS.filter((op) => op.types.includes(type));

/** The reads /mcp offers as tools of their own (CONTRACT §8), in catalogue order. */
export const DIRECT_TOOL_OPERATIONS: readonly Operation[] = OPERATIONS.filter((op) => op.toolName);

// ---- Search (find_operations, the Operations page) ----

/** Words people use for what an operation's own words say. */
const SYNONYMS: Record<string, string[]> = {
  stop: ["pause"],
  halt: ["pause"],
  off: ["pause", "disable"],
  disable: ["pause"],
  resume: ["enable"],
  restart: ["enable"],
  start: ["enable"],
  activate: ["enable"],
  unpause: ["enable"],
  on: ["enable"],
  send: ["post", "message"],
  notify: ["post", "message"],
  message: ["post"],
  spend: ["budget", "cost"],
  subscriber: ["profile", "list"],
  subscribe: ["list", "profile"],
  lead: ["contact"],
  customer: ["contact", "customers"],
  traffic: ["sessions", "report"],
  visits: ["sessions"],
  analytics: ["report"],
  stats: ["report", "insights"],
  performance: ["report", "insights"],
  disapproved: ["disapproval", "status"],
  rejected: ["disapproval", "status"],
};

/**
 * Words that ask for a change ("post on our page", "pause the campaign") or for a look ("which
 * products…", "show the campaigns"): when a request holds words of one kind only, the writes
 * (or the reads) among equally good matches come first.
 */
const WRITE_WORDS = new Set([
  "post",
  "publish",
  "send",
  "create",
  "add",
  "append",
  "insert",
  "pause",
  "stop",
  "resume",
  "enable",
  "update",
  "change",
  "set",
  "raise",
  "lower",
  "increase",
  "decrease",
  "reply",
  "copy",
  "move",
  "archive",
  "unsubscribe",
  "write",
  "make",
  "turn",
]);
const READ_WORDS = new Set([
  "list",
  "show",
  "get",
  "read",
  "find",
  "search",
  "see",
  "view",
  "fetch",
  "look",
  "which",
  "what",
  "who",
  "many",
  "report",
]);

const STOP_WORDS = new Set([
  "a",
  "an",
  "the",
  "of",
  "to",
  "in",
  "on",
  "for",
  "my",
  "our",
  "and",
  "or",
  "with",
  "from",
  "by",
  "at",
  "is",
  "it",
  "this",
  "that",
  "me",
  "i",
  "we",
  "do",
  "how",
  "can",
]);

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP_WORDS.has(w));

/** "campaigns" and "campaign" are one word to the search. */
const stem = (w: string) =>
  w.length > 4 && w.endsWith("ies")
    ? `${w.slice(0, -3)}y`
    : w.length > 3 && w.endsWith("s") && !w.endsWith("ss")
      ? w.slice(0, -1)
      : w;

type Indexed = { op: Operation; strong: Set<string>; weak: Set<string> };

const INDEX: Indexed[] = OPERATIONS.map((op) => {
  const platforms = op.types.map((t) => findConnectionType(t)?.name ?? t).join(" ");
  return {
    op,
    strong: new Set(
      [
        ...words(op.id),
        ...words(op.title),
        ...words(op.toolName ?? ""),
        ...words(platforms),
        ...op.types.flatMap(words),
        op.kind,
      ].map(stem),
    ),
    weak: new Set(words(op.description).map(stem)),
  };
});

/** In how many operations each word appears (id, title, platform or description). */
const OPERATIONS_WITH = new Map<string, number>();
for (const { strong, weak } of INDEX)
  for (const w of new Set([...strong, ...weak])) OPERATIONS_WITH.set(w, (OPERATIONS_WITH.get(w) ?? 0) + 1);

/**
 * How much a word tells operations apart: 1 + its inverse document frequency, so "drive" or
 * "disapproval" (a few operations) outweighs "google" or "report" (dozens) among 100+ operations.
 */
const rarity = (word: string) => 1 + Math.log((INDEX.length + 1) / (OPERATIONS_WITH.get(word) ?? 1));

/**
 * The operations matching `query`, best first: each word of the query (or a synonym) found in
 * an operation's id, title or platform counts 3, in its description 1, times the word's rarity;
 * a request that only asks for a change (or only for a look) puts writes (or reads) first among
 * equal matches. Operations matching none are left out. No query: every operation, in catalogue
 * order. `among` narrows the search.
 */
export function searchOperations(query: string | undefined, among: readonly Operation[] = OPERATIONS): Operation[] {
  const terms = words(query ?? "");
  if (!terms.length) return [...among];
  const allowed = new Set(among);
  const writeIntent = terms.some((t) => WRITE_WORDS.has(t));
  const readIntent = terms.some((t) => READ_WORDS.has(t));
  const scored: { op: Operation; score: number }[] = [];
  for (const { op, strong, weak } of INDEX) {
    if (!allowed.has(op)) continue;
    let score = 0;
    for (const term of terms) {
      const forms = [term, ...(SYNONYMS[term] ?? [])].map(stem);
      const inName = forms.find((f) => strong.has(f));
      const found = inName ?? forms.find((f) => weak.has(f));
      if (found) score += (inName ? 3 : 1) * rarity(found);
    }
    if (score > 0 && writeIntent !== readIntent && (op.kind === "write") === writeIntent) score += 1;
    if (score > 0) scored.push({ op, score });
  }
  return scored.sort((a, b) => b.score - a.score).map((s) => s.op);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/** The catalogue ids closest to `id` (an unknown one), for the error that names them. */
export function closestOperationIds(id: string, count = 3): string[] {
  const probe = id.toLowerCase().slice(0, 200);
  return OPERATIONS.map((op) => ({
    id: op.id,
    d: distance(probe, op.id) - (op.id.includes(probe) || probe.includes(op.id) ? 5 : 0),
  }))
    .sort((a, b) => a.d - b.d)
    .slice(0, count)
    .map((x) => x.id);
}
