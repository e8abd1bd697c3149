import "server-only";
import type { Compilable } from "kysely";
import { encodeReadParameter, readBuilder, runRead } from "@/lib/db/client";

export { readBuilder as read };

/** Stands for the named argument while a query is compiled; replaced by its value on each run. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A read query compiled once per shape and then only bound and run: `build` receives its
 * arguments as placeholders (use them only as values in the query; test them only with
 * `!== undefined`, which decides the shape) and returns a typed Kysely query. Compiling costs
 * more than running an indexed read, so it is not repeated per request.
 */
export function prepared<Args extends Record<string, unknown>, Row>(build: (args: Args) => Compilable<Row>) {
  const shapes = new Map<string, { sql: string; parameters: readonly unknown[] }>();
  return async (args: Args): Promise<Row[]> => {
    let shape = "";
    for (const name in args) if (args[name] !== undefined) shape += `${name},`;
    let compiled = shapes.get(shape);
    if (!compiled) {
      const slots = Object.fromEntries(
        Object.keys(args).map((name) => [name, args[name] === undefined ? undefined : new Slot(name)]),
      ) as Args;
      compiled = build(slots).compile();
      shapes.set(shape, compiled);
    }
    const values = compiled.parameters.map((v) => encodeReadParameter(v instanceof Slot ? args[v.name] : v));
    return (await runRead(compiled.sql, values)) as Row[];
  };
}
