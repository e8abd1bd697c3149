// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document's JSON, walked untyped
type Json = Record<string, any>;

/**
 * A plain list of the operations and schemas, for readers (and crawlers) without JavaScript:
 * the interactive reference renders only in the browser.
 */
export function OperationOutline({
  doc,
}: {
  doc: { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, unknown> } };
}) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The interactive reference needs JavaScript; the full description is in{" "}
        <a href="/v1/openapi.json">openapi.json</a>.
      </p>
      <h2 className="mt-6 text-lg font-semibold">Operations</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {Object.entries(doc.paths).flatMap(([path, methods]) =>
          Object.entries(methods).map(([method, op]) => (
            <li key={`${method} ${path}`}>
              <code className="font-mono uppercase">{method}</code> <code className="font-mono">{path}</code> —{" "}
              {op.summary}
            </li>
          )),
        )}
      </ul>
      <h2 className="mt-6 text-lg font-semibold">Schemas</h2>
      <p className="mt-2 font-mono text-sm">{Object.keys(doc.components.schemas).join(", ")}</p>
    </div>
  );
}
