import { json } from "@/lib/http/json";

export const dynamic = "force-dynamic";

/** Liveness: the process is up and serving. No database access, so a database outage never restarts it. */
export function GET(): Response {
  return json({ status: "ok" });
}
