import Link from "next/link";
import { StepStatusBadge } from "@/components/agent/badges";
import type { AgentStep } from "@/lib/queries/agent";

const ROW = [
  "flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-zinc-200 bg-white px-3 py-1.5 text-xs",
  "dark:border-zinc-800 dark:bg-zinc-900",
].join(" ");
const link = "text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

/** One operation the agent ran: what, on which connection, how it went, and its log. */
export function StepRow({ teamId, step, connectionName }: { teamId: string; step: AgentStep; connectionName: string }) {
  return (
    <div data-testid="agent-step" className={ROW}>
      <span className="break-all font-mono text-zinc-900 dark:text-zinc-100">{step.operation_id}</span>
      <span className="min-w-0 wrap-anywhere text-zinc-600 dark:text-zinc-400">on {connectionName}</span>
      <StepStatusBadge status={step.status} />
      {step.log_id ? (
        <Link href={`/${teamId}/logs?log=${encodeURIComponent(step.log_id)}`} className={`ml-auto ${link}`}>
          Log<span className="sr-only"> of {step.operation_id}</span>
        </Link>
      ) : (
        <span className="ml-auto text-zinc-600 dark:text-zinc-400">
          {step.status === "pending" ? "runs once approved" : "not run"}
        </span>
      )}
    </div>
  );
}
