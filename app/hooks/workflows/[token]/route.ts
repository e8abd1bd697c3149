import type { NextRequest } from "next/server";
import { errorResponse, json } from "@/lib/http/json";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { clientIp, requestIdFrom, runWithContext } from "@/lib/observability/request-context";
import { receiveWebhookTrigger } from "@/lib/workflows/webhook-trigger";

/** A workflow's webhook trigger (CONTRACT §13): a JSON object in, `202 {"run_id"}` out. */
export async function POST(req: NextRequest, route: { params: Promise<{ token: string }> }) {
  return runWithContext({ requestId: requestIdFrom(req.headers), ip: clientIp(req.headers) }, async () => {
    try {
      const { token } = await route.params;
      return json(await receiveWebhookTrigger(token, req), { status: 202 });
    } catch (e) {
      return errorResponse(e);
    }
  });
}

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
