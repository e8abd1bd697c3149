// One seed command in a process of its own, with this process's environment (another database, a
// server's own settings): `node --conditions=react-server --import tsx e2e/support/seed.ts <command> '<json>'`.
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
