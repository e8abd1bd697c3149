// The words of a log search (GET /v1/logs?q=…, CONTRACT §12), as both engines index a log's text
// (migration 0025_log_search: PostgreSQL's patchbay_search_words, SQLite's FTS5 `ascii`
// tokenizer): a word is a run of ASCII letters and digits and of any non-ASCII character; every
// other ASCII character (space, punctuation, quotes, operators) separates words; ASCII letters
// are matched without regard to case. So `ga4.run_report` is the words `ga4`, `run`, `report`.
// Pure: the dashboard highlights matches with the same rule.

/** The longest `q` taken, in characters. */
export const SEARCH_MAX_CHARS = 200;
/** The most words a `q` may hold (each must match). */
export const SEARCH_MAX_WORDS = 8;
/** Indexed words are cut to this many characters (a lexeme's size limit); search words likewise. */
const WORD_MAX_CHARS = 100;

const WORD = /[A-Za-z0-9\u0080-\uffff]+/g;

const asciiLower = (w: string) => w.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/** The distinct words of `text`, lower-cased (ASCII) and cut to the indexed length, in order. */
export function searchWords(text: string): string[] {
  const words = (text.match(WORD) ?? []).map((w) => asciiLower(Array.from(w).slice(0, WORD_MAX_CHARS).join("")));
  return [...new Set(words)];
}

/** Why `q` cannot be searched (a sentence for a 400's detail), or null when it can. */
export function searchProblem(q: string): string | null {
  if (q.length > SEARCH_MAX_CHARS) return `q is ${q.length} characters long; the limit is ${SEARCH_MAX_CHARS}`;
  const n = searchWords(q).length;
  if (n === 0) return "q has no word to search for: give letters or digits (punctuation only separates words)";
  if (n > SEARCH_MAX_WORDS) return `q has ${n} words; at most ${SEARCH_MAX_WORDS} are taken`;
  return null;
}

/**
 * The stretches of `text` that a search for `words` matched: every word of `text` that begins
 * with one of them (a search word matches as a prefix), as [start, end) offsets, in order.
 */
export function matchRanges(text: string, words: readonly string[]): [number, number][] {
  if (!words.length) return [];
  const ranges: [number, number][] = [];
  for (const m of text.matchAll(WORD)) {
    const lower = asciiLower(m[0]);
    const longest = Math.max(0, ...words.filter((w) => lower.startsWith(w)).map((w) => w.length));
    if (longest) ranges.push([m.index, m.index + longest]);
  }
  return ranges;
}
