import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect } from "@playwright/test";
import { requestContext } from "../support/request-context";

// The suite's request contexts retry a request once when its connection is reset before an
// answer, as a reused keep-alive connection that the server closed at that moment is.

test("a request whose connection is reset before any answer is sent again once, and only once", async () => {
  let arrivals = 0;
  const server = createServer((req, res) => {
    arrivals++;
    if (req.url === "/once" && arrivals === 1) return req.socket.destroy();
    if (req.url === "/always") return req.socket.destroy();
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const context = await requestContext({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  try {
    const res = await context.get("/once");
    expect(await res.text()).toBe("ok");
    expect(arrivals).toBe(2);
    arrivals = 0;
    await expect(context.get("/always")).rejects.toThrow(/ECONNRESET|socket hang up/);
    expect(arrivals).toBe(2);
  } finally {
    await context.dispose();
    server.close();
  }
});
