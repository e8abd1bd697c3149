import { isAbsolute, resolve } from "node:path";
import { dataDir } from "@/lib/config/env";

export type DatabaseTarget = { engine: "sqlite"; url: string; file: string } | { engine: "postgresql"; url: string };

/** DATABASE_URL: `file:` (default `file:./data/app.db`) is the embedded SQLite, `postgres(ql)://` is PostgreSQL. */
export function databaseTarget(url = process.env.DATABASE_URL): DatabaseTarget {
  if (!url) return { engine: "sqlite", url: `file:${resolve(dataDir, "app.db")}`, file: resolve(dataDir, "app.db") };
  if (/^postgres(ql)?:\/\//.test(url)) return { engine: "postgresql", url };
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length).split("?")[0];
    const file = isAbsolute(path) ? path : resolve(/*turbopackIgnore: true*/ process.cwd(), path);
    return { engine: "sqlite", url: `file:${file}`, file };
  }
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got "${url.split(":")[0]}:…")`);
}
