import { findConnectionType } from "@/lib/providers/registry";

/** The plain-markdown docs page of a connection type (ConnectionType.docs_url). */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const def = file.endsWith(".md") ? findConnectionType(file.slice(0, -3)) : undefined;
  if (!def?.docs) return new Response(`No docs page ${file}.\n`, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(def.docs, { headers: { "content-type": "text/markdown; charset=utf-8" } });
}
