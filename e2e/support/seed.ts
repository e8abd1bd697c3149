// `seedWith`'s process: one seed command with this process's environment (another database,
// another TZ): `node --conditions=react-server --import tsx e2e/support/seed.ts <command> '<json>'`.
import { seedCommands } from "./seed-commands";

const [name, json] = process.argv.slice(2);
seedCommands[name](JSON.parse(json ?? "{}")).then(
  (out) => {
    process.stdout.write(JSON.stringify(out));
    process.exit(0);
  },
  (e) => {
    process.stderr.write(String(e?.stack ?? e));
    process.exit(1);
  },
);
