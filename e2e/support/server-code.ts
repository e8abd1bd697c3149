import { createRequire } from "node:module";

// The test workers call the product's lib functions in their own process (`seed` and `cli` in
// e2e/fixtures.ts), as the CLI's own process does: that process is server code, started with
// --conditions=react-server, where `import "server-only"` is empty. A worker cannot pick its
// conditions, so it marks the module as loaded and empty before anything imports it.
const require = createRequire(__filename);
const serverOnly = require.resolve("server-only");
require.cache[serverOnly] ??= { id: serverOnly, filename: serverOnly, loaded: true, exports: {} } as NodeJS.Module;
