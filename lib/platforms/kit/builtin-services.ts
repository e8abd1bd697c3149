// What Patchbay's own built-in operations (patchbay.*) need from the product: a platform folder
// imports only the kit, so the process that runs workflows provides them at start (the worker,
// the CLI, an inline runner). One set per process.

type BuiltinAuthLink = { id: string; url: string; expires_at: number };

export type BuiltinServices = {
  /** POST /v1/connections/auth-link for `userId` of `teamId`. */
  createAuthLink(
    scope: { teamId: string; userId: string },
    body: { connection_type: string; external_id?: string; redirect_url?: string },
  ): Promise<BuiltinAuthLink>;
};

const provided = ((globalThis as { __patchbayBuiltins?: Partial<BuiltinServices> }).__patchbayBuiltins ??= {});

export function provideBuiltins(services: BuiltinServices) {
  Object.assign(provided, services);
}

export function builtinService<K extends keyof BuiltinServices>(name: K): BuiltinServices[K] {
  const service = provided[name];
  if (!service) throw new Error(`${name} is not available in this process: workflows run it in their worker.`);
  return service;
}
