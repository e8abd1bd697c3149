import type { Metadata } from "next";
import { appUrl } from "@/lib/config/env";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";

export const metadata: Metadata = { title: "API reference · Patchbay" };
export const dynamic = "force-dynamic";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHOD_STYLE: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200",
  post: "bg-indigo-100 text-indigo-800 dark:bg-indigo-900/50 dark:text-indigo-200",
  delete: "bg-rose-100 text-rose-800 dark:bg-rose-900/50 dark:text-rose-200",
};

function typeLabel(schema: Json | undefined): string {
  if (!schema) return "any";
  if (schema.$ref) return String(schema.$ref).split("/").pop()!;
  if (schema.anyOf) return schema.anyOf.map(typeLabel).join(" | ");
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  if (schema.type === "array") return `${typeLabel(schema.items)}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return schema.type ?? "any";
}

/** Descriptions are written with markdown inline code; render `x` as code, the rest as text. */
function Prose({ text }: { text?: string }) {
  if (!text) return null;
  return (
    <>
      {text.split(/`([^`]+)`/).map((part, i) =>
        i % 2 ? (
          <code key={i} className="rounded bg-zinc-100 px-1 font-mono text-[0.9em] dark:bg-zinc-800">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Fields({ schema }: { schema: Json }) {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Json>);
  if (!props.length) return <p className="text-sm text-zinc-500">{typeLabel(schema)}</p>;
  const required = new Set<string>(schema.required ?? []);
  return (
    <table className="w-full text-left text-sm">
      <tbody>
        {props.map(([name, field]) => (
          <tr key={name} className="border-t border-zinc-200 align-top dark:border-zinc-800">
            <td className="py-1.5 pr-3 font-mono text-[13px]">
              {name}
              {required.has(name) && <span className="ml-1 text-rose-600">*</span>}
            </td>
            <td className="py-1.5 pr-3 font-mono text-[13px] text-zinc-500">{typeLabel(field)}</td>
            <td className="py-1.5 text-zinc-700 dark:text-zinc-300">
              <Prose text={field.description} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ApiReferencePage() {
  const doc = buildOpenApiDocument(appUrl());
  const schemas = doc.components.schemas as Record<string, Json>;
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight">{doc.info.title}</h1>
      <p className="mt-1 text-sm text-zinc-500">
        Version {doc.info.version} · base URL <code className="font-mono">{appUrl()}</code> ·{" "}
        <a className="text-indigo-600 hover:underline dark:text-indigo-400" href="/v1/openapi.json">
          openapi.json
        </a>
      </p>
      <p className="mt-4 text-zinc-700 dark:text-zinc-300">
        <Prose text={doc.info.description} />
      </p>

      {Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]: [string, Json]) => (
          <section key={`${method} ${path}`} id={op.operationId} className="mt-10 border-t border-zinc-200 pt-6 dark:border-zinc-800">
            <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
              <span className={`rounded px-2 py-0.5 font-mono text-xs uppercase ${METHOD_STYLE[method]}`}>{method}</span>
              <code className="font-mono text-base">{path}</code>
            </h2>
            <p className="mt-1 font-medium">{op.summary}</p>
            {op.description && (
              <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
                <Prose text={op.description} />
              </p>
            )}
            {op.parameters && (
              <>
                <h3 className="mt-4 text-sm font-semibold uppercase tracking-wide text-zinc-500">Parameters</h3>
                <Fields
                  schema={{
                    properties: Object.fromEntries(op.parameters.map((p: Json) => [`${p.name} (${p.in})`, { ...p.schema, description: p.description }])),
                    required: op.parameters.filter((p: Json) => p.required).map((p: Json) => `${p.name} (${p.in})`),
                  }}
                />
              </>
            )}
            {op.requestBody && (
              <>
                <h3 className="mt-4 text-sm font-semibold uppercase tracking-wide text-zinc-500">Body</h3>
                <Fields schema={op.requestBody.content["application/json"].schema} />
              </>
            )}
            <h3 className="mt-4 text-sm font-semibold uppercase tracking-wide text-zinc-500">Responses</h3>
            <ul className="mt-1 space-y-1 text-sm">
              {Object.entries(op.responses as Record<string, Json>).map(([status, r]: [string, Json]) => (
                <li key={status}>
                  <span className="font-mono font-semibold">{status}</span> {status === "200" ? typeLabel(r.content["application/json"].schema) : <Prose text={r.description} />}
                </li>
              ))}
            </ul>
          </section>
        )),
      )}

      <h2 className="mt-14 border-t border-zinc-200 pt-6 text-2xl font-semibold dark:border-zinc-800">Schemas</h2>
      {Object.entries(schemas).map(([name, schema]) => (
        <section key={name} id={`schema-${name}`} className="mt-6">
          <h3 className="font-mono text-base font-semibold">{name}</h3>
          {schema.description && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              <Prose text={schema.description} />
            </p>
          )}
          <Fields schema={schema} />
        </section>
      ))}
    </main>
  );
}
