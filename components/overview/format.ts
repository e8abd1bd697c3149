const credits = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const shortDate = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

export const formatCredits = (n: number) => credits.format(n);
/** Day buckets are UTC days, so their labels are too. */
export const formatDay = (unixSeconds: number) => shortDate.format(new Date(unixSeconds * 1000));

/**
 * `used` as a share of `limit`, as a person reads it: never "0%" once anything is used (191 of
 * 100,000 is "0.2%", 3 of 100,000 "<0.1%"), never "100%" before the limit is reached, one decimal
 * below 10% where a whole number would hide the difference.
 */
export function formatShare(used: number, limit: number): string {
  if (used <= 0) return "0%";
  if (limit <= 0) return "100%";
  const percent = (used / limit) * 100;
  if (percent < 0.1) return "<0.1%";
  if (percent < 10) return `${Number(percent.toFixed(1))}%`;
  if (percent < 100 && Math.round(percent) >= 100) return "99.9%";
  return `${Math.round(percent)}%`;
}

/** What the API said went wrong (its `detail`), as text; one implementation for every page. */
export { errorDetail as detailText } from "@/components/ui/error-note";
