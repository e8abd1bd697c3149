import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The Chromium every browser test and `bench:ui` drive. By default the one shipped inside the
 * npm package @sparticuz/chromium (a devDependency), so `npm install && npm test` needs nothing
 * installed by hand and CI runs the same binary as a fresh machine; `CHROMIUM_PATH` points at
 * another build on purpose. A browser that cannot be provided fails the run, never skips tests.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// build/index.js inside the package; its package.json is not exported.
const packageDir = join(dirname(createRequire(__filename).resolve("@sparticuz/chromium")), "..");

export async function chromiumExecutable(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen))
      throw new Error(
        `CHROMIUM_PATH=${chosen} does not exist; unset it to use the Chromium that npm install provides.`,
      );
    return chosen;
  }
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  // One folder per package version beside the package, filled once; the package unpacks into
  // os.tmpdir(), so point that at a private staging folder and move it into place whole, so a
  // run killed halfway, or two runs at once, never leave a half-written browser behind.
  const home = join(packageDir, "..", "..", ".cache", "patchbay-chromium");
  const target = join(home, version);
  const binary = join(target, "chromium");
  if (existsSync(binary)) return binary;
  const staging = join(home, `.staging-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    const { default: Chromium } = await import("@sparticuz/chromium");
    const unpacked = await Chromium.executablePath();
    if (unpacked !== join(staging, "chromium"))
      throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not into ${staging}`);
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    renameSync(staging, target);
  } catch (e) {
    // Another run moved its copy into place first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw e;
  }
  return binary;
}
