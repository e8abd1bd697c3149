import http from "node:http";

// The /mcp benchmarks' call: a kept-alive JSON-RPC POST (their run and sampling: mcp-bench.ts).

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/**
 * One JSON-RPC POST to /mcp over a kept-alive socket (no Authorization when `token` is null);
 * resolves with the parsed answer, and fails on any status but `expect` (200).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
export function rpc(url: string, token: string | null, body: unknown, expect = 200): Promise<any> {
  const data = JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          ...(token !== null && { authorization: `Bearer ${token}` }),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(data),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== expect) return fail(new Error(`/mcp: HTTP ${res.statusCode} ${text.slice(0, 300)}`));
          ok(JSON.parse(text));
        });
      },
    );
    req.on("error", fail);
    req.end(data);
  });
}
