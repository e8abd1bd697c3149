import "server-only";
import type { Compilable } from "kysely";
import { encodeReadParameter, readBuilder, runRead } from "@/lib/db/client";

export { readBuilder as read };

/** Stands for the named argument while a query is compiled; replaced by its value on each run. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * `build` compiled once per shape of its arguments; returns the SQL and the encoded values of
 * one call. `build` receives its arguments as placeholders (use them only as values in the
 * query; test them only with `!== undefined`, which decides the shape).
 */
export function compiledByShape<Args extends Record<string, unknown>>(build: (args: Args) => Compilable<unknown>) {
  const shapes = new Map<string, { sql: string; parameters: readonly unknown[] }>();
  return (args: Args): [sql: string, values: unknown[]] => {
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
    return [compiled.sql, compiled.parameters.map((v) => encodeReadParameter(v instanceof Slot ? args[v.name] : v))];
  };
}

/**
 * A read query compiled once per shape and then only bound and run (`compiledByShape`), returning
 * typed rows. Compiling costs more than running an indexed read, so it is not repeated per request.
 */
export function prepared<Args extends Record<string, unknown>, Row>(build: (args: Args) => Compilable<Row>) {
  const compiled = compiledByShape(build);
  return async (args: Args): Promise<Row[]> => {
    const [sql, values] = compiled(args);
    return (await runRead(sql, values)) as Row[];
  };
}
