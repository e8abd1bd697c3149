import "server-only";
import { db } from "@/lib/db/client";
import { ApiError, badRequest, notFound } from "@/lib/errors/api-error";
import { findNul, readBoundedText } from "@/lib/http/parse";
import { enforceRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";
import { enqueueRun, runOfKey } from "@/lib/workflows/queue-run";
import { hashWebhookToken } from "@/lib/workflows/triggers";

// A webhook trigger (CONTRACT §13): `POST <webhook_url>` with a JSON object starts a run of the
// workflow whose token it carries, the body being `{{trigger.body…}}`. Checked in the contract's
// order: the token (404), the workflow switched on (409), the size (413), a JSON object (400),
// then an `Idempotency-Key` / `webhook-id` seen within 24 h answers its first run without
// counting toward the rate, then the per-workflow rate (429). The run is the creator's.

/** The largest body a webhook trigger takes. */
const WEBHOOK_TRIGGER_MAX_BYTES = 262_144;
const KEY_MAX = 255;

/** Answers one webhook trigger request: the run it started (or the key's earlier one). */
export async function receiveWebhookTrigger(token: string, req: Request): Promise<{ run_id: string }> {
  const workflow =
    token.length <= 200
      ? await db.workflow.findUnique({
          where: { webhookTokenHash: hashWebhookToken(token) },
          select: { id: true, teamId: true, active: true, triggerType: true, createdByUserId: true },
        })
      : null;
  if (!workflow || workflow.triggerType !== "webhook")
    throw notFound("No workflow is triggered by this URL: the token is unknown or was rotated.");
  if (!workflow.active)
    throw new ApiError(409, "This workflow is inactive, so its webhook starts nothing; activate it first.");
  const text = await readBoundedText(req, WEBHOOK_TRIGGER_MAX_BYTES);
  let body: unknown = {};
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw badRequest(`Body is not valid JSON: ${(e as Error).message.slice(0, 200)}. Send a JSON object.`);
    }
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw badRequest(
      `Body must be a JSON object; it is ${Array.isArray(body) ? "a list" : body === null ? "null" : `a ${typeof body}`}.`,
    );
  const nul = findNul(body);
  if (nul !== null) throw badRequest(`${nul}: must not contain NUL characters or unpaired surrogates`);
  const key = (req.headers.get("idempotency-key") ?? req.headers.get("webhook-id"))?.trim() || null;
  if (key !== null && key.length > KEY_MAX) throw badRequest(`Idempotency-Key: must be at most ${KEY_MAX} characters`);
  const triggerKey = key === null ? undefined : `webhook:${key}`;
  // A retry of a delivery already accepted: its run, counted once.
  const earlier = triggerKey ? await runOfKey(workflow.id, triggerKey) : null;
  if (earlier) return { run_id: earlier };
  await enforceRateLimit(rateLimits().workflowWebhook, workflow.id);
  const { run_id } = await enqueueRun(
    workflow.teamId,
    workflow.id,
    { userId: workflow.createdByUserId },
    { trigger: "webhook", triggerData: { body }, triggerKey, requireActive: true },
  );
  return { run_id };
}
