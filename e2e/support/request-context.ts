import { request as pwRequest, type APIRequestContext } from "@playwright/test";

// The server closes a keep-alive connection after 5 s idle (Node's default, sent to clients as
// `Keep-Alive: timeout=5`). A client that reuses one at that very moment gets ECONNRESET for a
// request the server never read (seen once in the isolation suite beside a CPU burner). Browsers
// and fetch retry such a request, or retire the connection before its timeout, by themselves;
// Playwright's request context only when asked: every context of the suite asks for one retry.
const SENDS = new Set(["get", "post", "put", "patch", "delete", "head", "fetch"]);

type Send = (url: unknown, options?: object) => Promise<unknown>;

/** A Playwright request context whose requests are retried once on a connection reset. */
export async function requestContext(
  options: Parameters<typeof pwRequest.newContext>[0] = {},
): Promise<APIRequestContext> {
  const context = await pwRequest.newContext(options);
  return new Proxy(context, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = (value as Send).bind(target);
      return typeof property === "string" && SENDS.has(property)
        ? (url: unknown, sendOptions?: object) => method(url, { maxRetries: 1, ...sendOptions })
        : method;
    },
  });
}
