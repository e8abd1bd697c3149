/** The frame of every public connect page: one card, centred, readable on a phone. */
export function ConnectShell({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 py-10 sm:items-center dark:bg-zinc-950">
      <div className="w-full max-w-md">
        <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
          {children}
        </div>
        <p className="mt-4 text-center text-xs text-zinc-500 dark:text-zinc-400">Secured by Patchbay</p>
      </div>
    </main>
  );
}

export function ProviderLogo({ src, name }: { src?: string; name: string }) {
  if (!src) {
    return (
      <div
        aria-hidden
        className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-zinc-200 text-lg font-semibold text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"
      >
        {name.slice(0, 1)}
      </div>
    );
  }
  // A data URI or a file under /public: nothing to optimise, so a plain img.
  // eslint-disable-next-line @next/next/no-img-element -- a data URI or a file under /public (see above)
  return <img src={src} alt={`${name} logo`} width={48} height={48} className="h-12 w-12 shrink-0 rounded-xl" />;
}

/** A page that ends the flow with a message and what to do next. */
export function ConnectMessage({
  tone,
  title,
  children,
}: {
  tone: "success" | "warning" | "error";
  title: string;
  children: React.ReactNode;
}) {
  const mark = { success: "✓", warning: "!", error: "×" }[tone];
  const colour = {
    success: "bg-emerald-100 text-emerald-700 dark:bg-emerald-900/60 dark:text-emerald-300",
    warning: "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200",
    error: "bg-rose-100 text-rose-700 dark:bg-rose-900/60 dark:text-rose-200",
  }[tone];
  return (
    <ConnectShell>
      <div
        className={`flex h-12 w-12 items-center justify-center rounded-full text-xl font-bold ${colour}`}
        aria-hidden
      >
        {mark}
      </div>
      <h1 className="mt-4 text-xl font-semibold tracking-tight">{title}</h1>
      <div className="mt-2 space-y-2 text-sm leading-6 text-zinc-600 dark:text-zinc-300">{children}</div>
    </ConnectShell>
  );
}
