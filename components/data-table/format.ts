/** Unix seconds as a local date and time, to the second (the API's resolution). */
export function formatTime(seconds: number) {
  return new Date(seconds * 1000).toLocaleString("en-GB", { year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** `datetime-local` input value ⇄ Unix seconds in the URL. */
export function secondsToLocalInput(seconds: string | undefined) {
  if (!seconds || !/^\d+$/.test(seconds)) return "";
  const d = new Date(Number(seconds) * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function localInputToSeconds(value: string) {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? String(Math.floor(ms / 1000)) : undefined;
}
