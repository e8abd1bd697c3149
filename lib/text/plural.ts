/**
 * A count and its noun, agreeing: `plural(1, "row")` is "1 row", `plural(3, "row")` "3 rows".
 * Give the many form when it is not the one form plus "s", or when a verb agrees with the
 * count: `plural(n, "node fails", "nodes fail")`. Counts are grouped as in English ("1,234").
 */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
