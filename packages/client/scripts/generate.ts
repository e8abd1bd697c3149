// `npm run client:generate` writes the client's types (src/generated/openapi.ts) from the API's
// OpenAPI document: the one this checkout builds, or with `-- --url <base URL>` the one a running
// server serves (`--out <file>` writes elsewhere). The drift test
// (packages/client/test/generated.spec.ts) runs it on the test server's document and fails when
// the committed file differs.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

export const GENERATED_TYPES_PATH = fileURLToPath(new URL("../src/generated/openapi.ts", import.meta.url));

/** The TypeScript source of the document's paths, webhooks and components. */
export async function generateClientTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: false, exportType: false });
  return `${COMMENT_HEADER}// Generated from /v1/openapi.json by \`npm run client:generate\`.\n\n${astToString(ast)}`;
}

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

async function main() {
  const url = option("--url");
  let document: object;
  if (url) {
    const response = await fetch(new URL("/v1/openapi.json", url));
    if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
    document = (await response.json()) as object;
  } else {
    const { buildOpenApiDocument } = await import("@/lib/openapi/build-document");
    document = buildOpenApiDocument("http://localhost:3000");
  }
  const out = option("--out") ?? GENERATED_TYPES_PATH;
  await writeFile(out, await generateClientTypes(document));
  console.log(`wrote ${out}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
