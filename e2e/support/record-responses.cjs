// Preloaded into test servers (node --require) when PATCHBAY_RECORD_RESPONSES names a folder:
// every response to a /v1 request made as an integrator makes it (a bearer key, or no
// credential at all; not the dashboard's session cookie, which the document does not describe)
// is appended, as the server sent it (status line, headers,
// body bytes, possibly compressed), to <folder>/responses-<pid>.jsonl. The OpenAPI conformance
// test (e2e/conformance) walks them afterwards. Test-only: nothing in the product loads this.
const http = require("node:http");
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.PATCHBAY_RECORD_RESPONSES;
const MAX_BODY = 4 * 1024 * 1024;

if (dir) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `responses-${process.pid}.jsonl`);
  const serverEmit = http.Server.prototype.emit;
  const { write, end } = http.ServerResponse.prototype;

  http.Server.prototype.emit = function (event, req, res) {
    const integrator =
      req?.headers && (req.headers.authorization !== undefined || !/session-token/.test(req.headers.cookie ?? ""));
    if (event === "request" && typeof req.url === "string" && /^\/v1(\/|\?|$)/.test(req.url) && integrator) {
      res.__recording = { method: req.method, url: req.url, chunks: [], size: 0 };
    }
    return serverEmit.apply(this, arguments);
  };

  const keep = (res, chunk, encoding) => {
    const r = res.__recording;
    if (!r || chunk == null || typeof chunk === "function") return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8")
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    r.size += buf.length;
    if (r.size <= MAX_BODY) r.chunks.push(Buffer.from(buf));
    else r.truncated = true;
  };

  http.ServerResponse.prototype.write = function (chunk, encoding) {
    keep(this, chunk, encoding);
    return write.apply(this, arguments);
  };

  http.ServerResponse.prototype.end = function (chunk, encoding) {
    keep(this, chunk, encoding);
    const result = end.apply(this, arguments);
    const r = this.__recording;
    // `_header` is the header block exactly as sent, whichever way the headers were set.
    if (r && !r.done && typeof this._header === "string") {
      r.done = true;
      const line = JSON.stringify({
        method: r.method,
        url: r.url,
        head: this._header,
        body: Buffer.concat(r.chunks).toString("base64"),
        truncated: Boolean(r.truncated),
      });
      fs.appendFileSync(file, `${line}\n`);
    }
    return result;
  };
}
