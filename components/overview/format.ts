const credits = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const shortDate = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const longDate = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const dateTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

export const formatCredits = (n: number) => credits.format(n);
/** Day buckets are UTC days, so their labels are too. */
export const formatDay = (unixSeconds: number) => shortDate.format(new Date(unixSeconds * 1000));
export const formatDate = (unixSeconds: number) => longDate.format(new Date(unixSeconds * 1000));
export const formatDateTime = (unixSeconds: number) => dateTime.format(new Date(unixSeconds * 1000));

/** What the API said went wrong (its `detail`), as text; one implementation for every page. */
export { errorDetail as detailText } from "@/components/ui/error-note";
