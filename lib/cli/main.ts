import { runCli } from "@/lib/cli/run-cli";

// The operator's command line (CONTRACT §3): `npm run --silent cli -- <command> [flags]`.
void runCli(process.argv.slice(2)).then(({ code, stdout }) => {
  process.stdout.write(stdout);
  process.exit(code);
});
