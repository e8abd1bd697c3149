const credits = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const shortDate = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

export const formatCredits = (n: number) => credits.format(n);
/** Day buckets are UTC days, so their labels are too. */
export const formatDay = (unixSeconds: number) => shortDate.format(new Date(unixSeconds * 1000));

/** What the API said went wrong (its `detail`), as text; one implementation for every page. */
export { errorDetail as detailText } from "@/components/ui/error-note";
