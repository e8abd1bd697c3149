import { json } from "@/lib/http/json";
import { checkReadiness } from "@/lib/health/check-readiness";

export const dynamic = "force-dynamic";

/** Readiness: 200 when the database answers and has every migration; 503 with what is missing. */
export async function GET(): Promise<Response> {
  const readiness = await checkReadiness();
  if (readiness.ready) return json({ status: "ready" });
  return json({ detail: readiness.detail }, { status: 503, headers: { "Retry-After": "5" } });
}
