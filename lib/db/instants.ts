/**
 * Instants, whatever the time zone of this process or of the database server. Every stored
 * instant is UTC (PostgreSQL `timestamp(3)`, SQLite `DATETIME` text, as Prisma writes them),
 * and this module alone decides how one crosses the drivers:
 * - reads decode it to milliseconds since the epoch on both engines (`utcMs`): PostgreSQL
 *   through the pool's type parsers, SQLite through the columns declared `DATETIME`;
 * - a `Date` parameter of a read is sent as UTC text (`encodeParameter`): node-pg would send it
 *   in this process's zone, which a `timestamp` column takes at face value;
 * - every PostgreSQL session, Prisma's included, runs with `TimeZone=UTC`, so anything the
 *   database converts itself (a `CURRENT_TIMESTAMP` default) does not depend on the server's
 *   configured zone.
 */
export function utcMs(text: string): number {
  // A zone (Z or ±hh[:mm] after the time) is honoured; text without one (CURRENT_TIMESTAMP,
  // PostgreSQL's `timestamp` output) is UTC, never this process's local time.
  const iso = text.includes("T") ? text : text.replace(" ", "T");
  const zone = /(Z|[+-]\d\d(:?\d\d)?)$/.exec(iso.slice(iso.indexOf("T")));
  if (!zone) return Date.parse(`${iso}Z`);
  // PostgreSQL writes a whole-hour offset as `+00`, which Date.parse does not read.
  return Date.parse(zone[0].length === 3 ? `${iso}:00` : iso);
}

/**
 * Prisma's own text for an instant on SQLite (so comparisons with stored values hold); ISO-8601 UTC
 * on PostgreSQL. A boolean is 1 or 0 on SQLite, as Prisma stores it: its driver binds no booleans.
 */
export const encodeParameter = (engine: "sqlite" | "postgresql") => (v: unknown) =>
  v instanceof Date
    ? engine === "sqlite"
      ? v.toISOString().replace("Z", "+00:00")
      : v.toISOString()
    : engine === "sqlite" && typeof v === "boolean"
      ? Number(v)
      : v;
