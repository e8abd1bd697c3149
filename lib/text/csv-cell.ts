// CSV exports (the ledger's, a client's usage) write text that people typed: a spreadsheet must
// read it as text, never as a formula.

const FORMULA_SIGN = "[\\s\\u3000]*[=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20]";
/** A separator followed by what a spreadsheet reads as the start of a formula; and the same at the start. */
const FORMULA_AFTER_SEPARATOR = new RegExp(`([,;\\t\\r\\n])(?=${FORMULA_SIGN})`, "g");
const FORMULA_AT_START = new RegExp(`^${FORMULA_SIGN}`);

/**
 * A text cell that no spreadsheet reads as a formula, whatever separator it splits on. A
 * spreadsheet set to split on ";" (or tabs) ignores our quotes in mid-cell and cuts
 * "Acme;=HYPERLINK(…)" into a second cell that starts a formula; so every part of the text
 * that would start a cell under any separator (the start, and after each , ; tab or line
 * break) gets an apostrophe before a formula sign (= + - @, their full-width forms, after
 * blanks), which spreadsheets read as "this is text". Then the cell is quoted when it holds a
 * separator, a quote or a line break.
 */
export function textCell(value: string | null) {
  if (value === null) return "";
  const parts = value.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  const safe = FORMULA_AT_START.test(parts) ? `'${parts}` : parts;
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
