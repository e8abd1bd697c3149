import type { Metadata } from "next";
import Link from "next/link";
import { connectionTypes, connectionTypeToJson } from "@/lib/platforms/registry";
import { operationsForType } from "@/lib/operations/registry";
import { availableOperations } from "@/lib/operations/operation-json";
import { C, link, Table } from "@/components/docs/doc-parts";
import { DocsBar } from "@/components/docs/docs-bar";
import { TypeLogo } from "@/components/connections/type-logo";
import { plural } from "@/lib/text/plural";

export const metadata: Metadata = { title: "Connection types · Patchbay" };
// Which ways in a type offers depends on this server's OAuth apps (OAUTH_<PROVIDER>_…), read per request.
export const dynamic = "force-dynamic";

// Every connection type this server knows, read from the platform registry and the operations
// catalogue: a new type or operation appears here with no change to this page.

export default function ConnectionTypesDocsPage() {
  const types = connectionTypes().map((def) => {
    const json = connectionTypeToJson(def);
    const ops = operationsForType(def.type);
    return {
      def,
      json,
      reads: ops.filter((o) => o.kind === "read").length,
      writes: ops.filter((o) => o.kind === "write").length,
    };
  });
  // The catalogue's count, as the Operations page and `operation list` give it: an operation that
  // runs on several types is one operation, and the built-in utilities (no connection) count too.
  // Summing the per-type columns counted the first several times and the second not at all.
  const catalogue = availableOperations();
  const builtIn = catalogue.filter((op) => op.types.length === 0).length;
  return (
    <main className="mx-auto max-w-5xl px-4 py-6 sm:px-6">
      <DocsBar current="/docs/connections" />
      <h1 className="mt-8 text-3xl font-semibold tracking-tight">Connection types</h1>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
        {plural(types.length, "type")} ·{" "}
        <span data-testid="catalogue-count">{plural(catalogue.length, "operation")} in the catalogue</span> (
        {builtIn.toLocaleString("en")} of them built in, needing no connection) ·{" "}
        <Link className={link} href="/docs/operations">
          Operations and approvals
        </Link>
      </p>
      <p className="mt-4 text-zinc-700 dark:text-zinc-300">
        A connection is made through an auth link the account&apos;s owner opens (<C>oauth</C>), or from credentials you
        already hold (<C>manual</C>, verified with the provider before anything is stored). Each type&apos;s page says
        where every credential comes from and what the connection can read and change.
      </p>
      <div className="mt-6">
        <Table
          head={["Type", "Connects with", "Operations", "Docs"]}
          rows={types.map(({ def, json, reads, writes }) => [
            <span key="t" className="flex items-center gap-2">
              <TypeLogo logo={def.logo} size={24} />
              <span>
                <span className="font-medium text-zinc-900 dark:text-zinc-100">{def.name}</span>{" "}
                <C className="text-xs">{def.type}</C>
              </span>
            </span>,
            <span key="m">
              {json.auth_methods.length ? json.auth_methods.join(", ") : "not set up on this server"}
              {json.credential_fields?.length ? (
                <span className="block text-xs text-zinc-500 dark:text-zinc-400">
                  {json.credential_fields.join(", ")}
                </span>
              ) : null}
            </span>,
            `${plural(reads, "read")}, ${plural(writes, "write")}`,
            json.docs_url ? (
              <a key="d" className={link} href={`/docs/connections/${def.type}.md`}>
                {def.type}.md
              </a>
            ) : (
              "—"
            ),
          ])}
        />
      </div>
    </main>
  );
}
