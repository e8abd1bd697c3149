import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

/** A driver adapter factory whose adapters, the shadow database's too, pass through `wrap`. */
export function wrapAdapterFactory(
  factory: SqlMigrationAwareDriverAdapterFactory,
  wrap: (adapter: SqlDriverAdapter) => SqlDriverAdapter,
): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wrap(await factory.connect()),
    connectToShadowDb: async () => wrap(await factory.connectToShadowDb()),
  };
}
