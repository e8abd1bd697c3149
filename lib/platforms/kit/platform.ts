import type { Operation } from "@/lib/platforms/kit/operation-types";
import type { ConnectionTypeDefinition } from "@/lib/platforms/kit/types";

/**
 * One platform, all Patchbay knows of it in one folder (`lib/platforms/<id>/`): the connection
 * types it offers (each with its auth, identity call, docs page and logo) and the operations
 * that run on them. `lib/platforms/platforms.ts` lists every platform once.
 */
export type Platform = {
  id: string;
  /** The connection types a team can add; none for the built-in operations. */
  types: readonly ConnectionTypeDefinition[];
  operations: readonly Operation[];
  /** Offered only while the sandbox providers are enabled (CONTRACT §5), after the real platforms. */
  sandbox?: boolean;
};
