import { findConnectionType } from "@/lib/platforms/registry";
import { consentMarkdown } from "@/lib/operations/consent-text";

/**
 * The plain-markdown docs page of a connection type (ConnectionType.docs_url), ending with what the
 * connection allows.
 */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const def = file.endsWith(".md") ? findConnectionType(file.slice(0, -3)) : undefined;
  if (!def?.docs)
    return new Response(`No docs page ${file}.\n`, {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  // What the connection allows comes from the catalogue and the type's scopes, not the page's own text.
  return new Response(`${def.docs.trimEnd()}\n\n${consentMarkdown(def)}`, {
    headers: { "content-type": "text/markdown; charset=utf-8" },
  });
}
