import { z } from "zod";

// Scalar builds zod schemas for its configuration when its modules load, and zod probes for
// eval (its JIT) with `new Function` as each object schema is built. The CSP refuses eval and
// Chromium reports even the caught probe as a violation, so jitless has to be on before Scalar's
// modules run: this module is imported ahead of them. Browser only, like components/providers.tsx.
if (typeof window !== "undefined") z.config({ jitless: true });
