import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import type { ConsentText } from "@/lib/operations/consent-text";
import type { OAuthScope } from "@/lib/platforms/kit/types";

// The catalogue and the provider registry, as the server holds them, read in a process of the
// product's own modules (they need the react-server condition and the database client, which the
// test runner's transform cannot load). What a unit spec asserts on, as plain data.

type OperationFacts = { id: string; kind: "read" | "write"; types: string[]; consent: string | null };
export type TypeFacts = {
  type: string;
  operations: OperationFacts[];
  consent: ConsentText;
  markdown: string;
  /** OAuth types: the scopes declared, and those the authorize URL sends (split on spaces or commas). */
  oauth: { scopes: OAuthScope[]; scopesSetOnApp: boolean; sent: string[] } | null;
};
export type ConsentFacts = { operations: OperationFacts[]; types: TypeFacts[] };

export function consentFacts(): ConsentFacts {
  const code = `
    const pick = (m, name) => m[name] ?? m.default?.[name];
    const ops = await import("./lib/operations/registry.ts");
    const providers = await import("./lib/platforms/registry.ts");
    const consent = await import("./lib/operations/consent-text.ts");
    const opFacts = (op) => ({ id: op.id, kind: op.kind, types: op.types, consent: op.consent ?? null });
    const ctx = { client: { clientId: "client", clientSecret: "secret" }, redirectUri: "https://app.example/oauth/callback", state: "state", codeChallenge: "challenge", shop: "acme.myshopify.com" };
    const types = pick(providers, "connectionTypes")().map((def) => ({
      type: def.type,
      operations: pick(ops, "operationsForType")(def.type).map(opFacts),
      consent: pick(consent, "consentTextFor")(def),
      markdown: pick(consent, "consentMarkdown")(def),
      oauth: def.oauth
        ? {
            scopes: def.oauth.scopes,
            scopesSetOnApp: def.oauth.scopesSetOnApp ?? false,
            sent: (new URL(def.oauth.authorizeUrl({ ...ctx, type: def.type })).searchParams.get("scope") ?? "").split(/[ ,]+/).filter(Boolean),
          }
        : null,
    }));
    process.stdout.write(JSON.stringify({ operations: pick(ops, "OPERATIONS").map(opFacts), types }));
    process.exit(0);`;
  const out = execFileSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", code],
    {
      cwd: resolve(__dirname, "..", ".."),
      env: { ...process.env, SANDBOX_PROVIDERS: "1" },
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(out) as ConsentFacts;
}
