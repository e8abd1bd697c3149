import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { resolve } from "node:path";

const run = promisify(execFile);
/** Marks where the script's answer begins on stdout. */
const RESULT = "\n[in-database result] ";

/**
 * Runs `script` (the body of an async function) in a process of the product's own modules, on
 * this run's database and secrets, with `db`, `decryptJson`, `encryptJson` and `args` in scope;
 * returns what it returns. For a test that must look at or tamper with what is stored.
 */
export async function inDatabase<T>(
  script: string,
  args: unknown = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const code = `
    const pick = (m, name) => m[name] ?? m.default?.[name];
    const db = pick(await import("./lib/db/client.ts"), "db");
    const { decryptJson, encryptJson } = await import("./lib/security/encryption.ts").then((m) => ({ decryptJson: pick(m, "decryptJson"), encryptJson: pick(m, "encryptJson") }));
    const args = JSON.parse(process.argv[1]);
    const out = await (async () => { ${script} })();
    process.stdout.write(${JSON.stringify(RESULT)} + JSON.stringify(out ?? null) + "\\n");
    process.exit(0);`;
  const { stdout } = await run(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", code, JSON.stringify(args)],
    {
      cwd: resolve(__dirname, "..", ".."),
      env,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  // What the product logged on stdout comes before or after it, on lines of its own.
  const answer = stdout.slice(stdout.lastIndexOf(RESULT) + RESULT.length);
  return JSON.parse(answer.slice(0, answer.indexOf("\n")));
}
