// npm run bench:agent — the agent's own cost, on the production server, against the OpenAI
// stand-in (Chat Completions, streamed), in one run with samples alternated so every side sees
// the same machine:
//   - step:  an agent turn whose model asks for BENCH_AGENT_STEPS (4) tool steps one after the
//            other (run_operation of sandbox.report), then answers: the turn's wall time minus the
//            time the stand-in spent answering its model calls, over the steps, i.e. Patchbay's own
//            time per tool step (the turn and conversation rows, the AI SDK client, the tool run and
//            its log, the ledger entry, shared by the turn's steps); the same for a one-step turn is
//            reported beside it (a turn's fixed cost all on one step);
//   - run:   the same operation through /mcp's run_operation (tools/call with a pbm_ token);
//   - floor: the cheapest /v1 answer through the same wrapper (GET /v1/credits).
// Bar: step p50 ≤ 1.5 × run p50. Both sides read the same report (a cache hit after the first).
// Streaming: with Accept: text/event-stream, the time from the stand-in writing the answer's
// first token to this client reading the first `text` event; bar: p50 ≤ 50 ms.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL
// database (dropped afterwards). Writes e2e/.artifacts/bench-agent-<engine>.md.
import http from "node:http";
import { standIn as apiKeysStandIn } from "../support/stand-ins/api-keys";
import { modelTimings, scriptModel } from "../support/model-script";
import type { ModelTurn } from "../support/stand-ins/model-chat";
import { rpc } from "./mcp-rpc";
import { ms, runMcpBench, stats, timingTable } from "./mcp-bench";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** Tool steps in the measured turn (a question that takes a few reads, as most do). */
const STEPS = Number(process.env.BENCH_AGENT_STEPS ?? 4);
const MODEL_KEY = "sk-bench-agent";
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** One JSON request over a kept-alive socket; resolves with the status, the body and when each byte came. */
function request(url: string, key: string, method: string, body?: unknown, accept = "application/json") {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; text: string; firstEventAt: number | null }>((ok, fail) => {
    const req = http.request(
      url,
      {
        method,
        agent: keepAlive,
        headers: {
          authorization: `Bearer ${key}`,
          accept,
          ...(data && { "content-type": "application/json", "content-length": Buffer.byteLength(data) }),
        },
      },
      (res) => {
        let text = "";
        let firstEventAt: number | null = null;
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
          if (firstEventAt === null && text.includes("event: text")) firstEventAt = Date.now();
        });
        res.on("end", () => ok({ status: res.statusCode ?? 0, text, firstEventAt }));
      },
    );
    req.on("error", fail);
    req.end(data);
  });
}

apiKeysStandIn
  .start()
  .then((standIn) =>
    runMcpBench(
      "bench-agent",
      async ({ engine, baseUrl, url, team, user, mcpServer }) => {
        const { createApiKey } = await import("@/lib/api-keys/create-api-key");
        const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
        const post = async (path: string, body: unknown) => {
          const res = await request(`${baseUrl}${path}`, key, "POST", body);
          if (res.status !== 200 && res.status !== 201) throw new Error(`${path}: HTTP ${res.status} ${res.text}`);
          return JSON.parse(res.text) as Record<string, unknown>;
        };
        const sandbox = (await post("/v1/connections", {
          connection_type: "sandbox_key",
          name: "Bench sandbox",
          credentials: { api_key: "sk-bench-sandbox" },
        })) as { id: string };
        const model = (await post("/v1/connections", {
          connection_type: "openai",
          name: "Bench model",
          credentials: { api_key: MODEL_KEY },
        })) as { id: string };
        const { token } = await mcpServer([sandbox.id]);
        const input = { metric: "sessions", days: 7 };
        const call: ModelTurn = {
          tool_calls: [
            { name: "run_operation", arguments: { operation_id: "sandbox.report", connection_id: sandbox.id, input } },
          ],
          chunk_delay_ms: 0,
        };
        const answer: ModelTurn = { text: "Done.", chunk_delay_ms: 0 };

        /**
         * One agent turn whose model asks for `steps` tool steps one after the other, then answers:
         * Patchbay's own milliseconds per step (the turn's wall time minus the stand-in's, over `steps`).
         */
        const agentTurn = (steps: number) => async () => {
          await scriptModel(standIn.url, MODEL_KEY, [...Array<ModelTurn>(steps).fill(call), answer]);
          const before = (await modelTimings(standIn.url, MODEL_KEY)).length;
          const t = performance.now();
          const body = await post("/v1/agent/conversations", {
            model_connection_id: model.id,
            connection_ids: [sandbox.id],
            message: "report",
          });
          const wall = performance.now() - t;
          const turn = body.turn as { status: string; steps: unknown[] };
          if (turn.status !== "completed" || turn.steps.length !== steps)
            throw new Error(`the turn ended ${JSON.stringify(turn)}`);
          const calls = (await modelTimings(standIn.url, MODEL_KEY)).slice(before);
          const modelMs = calls.reduce((sum, c) => sum + ((c.done_at ?? c.received_at) - c.received_at), 0);
          return (wall - modelMs) / steps;
        };
        const mcpRun = async () => {
          const t = performance.now();
          const res = await rpc(url, token, {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: {
              name: "run_operation",
              arguments: { operation_id: "sandbox.report", connection_id: sandbox.id, input },
            },
          });
          if (res.result?.isError) throw new Error(`run_operation failed: ${JSON.stringify(res.result)}`);
          return performance.now() - t;
        };
        const floor = async () => {
          const t = performance.now();
          const res = await request(`${baseUrl}/v1/credits`, key, "GET");
          if (res.status !== 200) throw new Error(`/v1/credits: HTTP ${res.status}`);
          return performance.now() - t;
        };
        /** Stand-in's first token → the first `text` event read here. */
        const firstToken = async () => {
          await scriptModel(standIn.url, MODEL_KEY, [
            { text: "The sandbox account had many sessions over the last seven days.", chunk_delay_ms: 5 },
          ]);
          const before = (await modelTimings(standIn.url, MODEL_KEY)).length;
          const res = await request(
            `${baseUrl}/v1/agent/conversations`,
            key,
            "POST",
            { model_connection_id: model.id, connection_ids: [], message: "hello" },
            "text/event-stream",
          );
          if (res.status !== 201 || res.firstEventAt === null)
            throw new Error(`stream: HTTP ${res.status} ${res.text}`);
          const [call] = (await modelTimings(standIn.url, MODEL_KEY)).slice(before);
          return res.firstEventAt - call.first_token_at!;
        };

        const sides: Record<string, () => Promise<number>> = {
          step: agentTurn(STEPS),
          single: agentTurn(1),
          run: mcpRun,
          floor,
        };
        for (let i = 0; i < 20; i++) for (const side of Object.values(sides)) await side();
        const times: Record<string, number[]> = { step: [], single: [], run: [], floor: [], first: [] };
        const order = Object.keys(sides);
        const until = performance.now() + SECONDS * 1000;
        for (let round = 0; performance.now() < until; round++) {
          for (let i = 0; i < order.length; i++) {
            const side = order[(round + i) % order.length];
            times[side].push(await sides[side]());
          }
          if (round % 4 === 0) times.first.push(await firstToken());
        }
        const s = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)]));
        const ratio = s.step.p50 / s.run.p50;
        return {
          lines: [
            `# bench:agent on ${engine}`,
            "",
            ...timingTable({
              [`agent tool step: a ${STEPS}-step turn minus the model stand-in's time, over ${STEPS}`]: s.step,
              "agent one-step turn minus the model stand-in's time": s.single,
              "run_operation through /mcp": s.run,
              "floor: GET /v1/credits": s.floor,
              "stream: stand-in first token → first text event here": s.first,
            }),
            "",
            `step − floor: ${ms(s.step.p50 - s.floor.p50)} ms; run − floor: ${ms(s.run.p50 - s.floor.p50)} ms (p50)`,
          ],
          bars: [
            { bar: "agent step p50 / run_operation p50 ≤ 1.5", value: ratio, ok: ratio <= 1.5 },
            { bar: "stream first-token delay p50 ≤ 50 ms", value: s.first.p50, ok: s.first.p50 <= 50 },
          ],
        };
      },
      { PROVIDER_BASE_URLS: JSON.stringify({ openai: standIn.url }) },
    ),
  )
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
