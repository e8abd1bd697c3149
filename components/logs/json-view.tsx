import { plural } from "@/lib/text/plural";

/** JSON as a tree whose objects and arrays fold open and shut (native <details>: keyboard accessible). */
export function JsonView({ value, name, depth = 0 }: { value: unknown; name?: string; depth?: number }) {
  const key =
    name !== undefined ? <span className="text-indigo-700 dark:text-indigo-300">{JSON.stringify(name)}: </span> : null;
  if (value === null || typeof value !== "object") {
    return (
      <div className="break-all">
        {key}
        <span
          className={
            typeof value === "string" ? "text-emerald-700 dark:text-emerald-400" : "text-amber-700 dark:text-amber-300"
          }
        >
          {value === undefined ? "null" : JSON.stringify(value)}
        </span>
      </div>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((v: unknown, i) => [String(i), v] as const)
    : Object.entries(value as Record<string, unknown>);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (!entries.length) {
    return (
      <div>
        {key}
        {open}
        {close}
      </div>
    );
  }
  return (
    <details open={depth < 2}>
      <summary className="cursor-pointer list-none rounded leading-6 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 [&::-webkit-details-marker]:hidden">
        <span className="inline-block w-3 text-zinc-500 dark:text-zinc-400 [details[open]>summary>&]:rotate-90">▸</span>
        {key}
        {open}
        <span className="text-zinc-500 dark:text-zinc-400 [details[open]>summary>&]:hidden">
          {" "}
          {plural(entries.length, Array.isArray(value) ? "item" : "key")} {close}
        </span>
      </summary>
      <div className="ml-4 border-l border-zinc-200 pl-2 dark:border-zinc-700">
        {entries.map(([k, v]) => (
          <JsonView key={k} name={Array.isArray(value) ? undefined : k} value={v} depth={depth + 1} />
        ))}
      </div>
      <div className="ml-3">{close}</div>
    </details>
  );
}
