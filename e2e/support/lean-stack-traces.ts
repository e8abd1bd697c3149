import { resolve, sep } from "node:path";

// Playwright's test workers format every stack through source-map-support, 200 frames deep, and
// its client captures a 50-frame stack for each API call (request.get, expect, page.click …) to
// name the test line it came from. source-map-support copies every frame into a new object
// (about thirty accessors each) before looking up a source map, even for files that have none.
// A CPU profile of the API project's workers (2026-12-02) put a third of their time there.
//
// Only the files Playwright compiled have a source map: this repository's TypeScript (the tests
// and the lib/ modules they import). Their frames are still mapped by source-map-support, one
// frame at a time; every other frame (node_modules, node: internals) is printed as V8 prints it,
// which is what source-map-support ended up printing for them anyway.

const root = resolve(__dirname, "..", "..") + sep;
// eslint-disable-next-line @typescript-eslint/unbound-method -- a plain function Playwright installed, called without `this`
const mapped = Error.prepareStackTrace;

const ownSource = (file: string | null | undefined) =>
  Boolean(file) && (file!.startsWith(root) || file!.startsWith(`file://${root}`)) && !file!.includes("node_modules");

if (mapped) {
  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => {
    return formatted(error, frames, (frame) => {
      // One frame through source-map-support: "<header>\n    at <mapped frame>", header dropped.
      const one = String(mapped({ name: "", message: "" }, [frame]));
      return one.slice(one.indexOf("\n"));
    });
  };
}

function formatted(error: Error, frames: NodeJS.CallSite[], map: (frame: NodeJS.CallSite) => string | null) {
  const name = error?.name || "Error";
  const message = error?.message || "";
  let out = message ? `${name}: ${message}` : name;
  for (const frame of frames) out += (ownSource(frame.getFileName()) && map(frame)) || `\n    at ${frame.toString()}`;
  return out;
}
