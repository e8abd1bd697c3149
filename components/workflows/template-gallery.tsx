"use client";

import Link from "next/link";
import { ErrorNote } from "@/components/ui/error-note";
import { useCatalogue } from "@/components/workflows/catalogue";
import { describeSchedule } from "@/components/workflows/schedule-words";
import { WORKFLOW_TEMPLATES } from "@/lib/workflows/workflow-templates";

const muted = "text-zinc-600 dark:text-zinc-400";

/**
 * The ready templates, each with what it does, when it runs, and which connections it needs (and
 * whether the team has them).
 */
export function TemplateGallery({ teamId }: { teamId: string }) {
  const { index, error } = useCatalogue(teamId);
  return (
    <div className="space-y-3">
      {error && <ErrorNote error={error} title="Your connections could not be loaded." />}
      <ul className="grid grid-cols-1 gap-3 md:grid-cols-2" aria-label="Templates">
        {WORKFLOW_TEMPLATES.map((t) => {
          const writes = t.nodes.filter((n) => index?.byId.get(n.operation_id)?.kind === "write");
          return (
            <li key={t.id} className="card flex flex-col gap-3 p-4" data-testid="workflow-template">
              <div>
                <h2 className="text-base font-semibold">
                  <Link
                    href={`/${teamId}/workflows/new?template=${t.id}`}
                    className="text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                  >
                    {t.name}
                  </Link>
                </h2>
                <p className={`mt-0.5 text-sm ${muted}`}>{t.description}</p>
              </div>
              <dl className="grid grid-cols-[6.5rem_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className={muted}>Runs</dt>
                <dd>{t.schedule ? `${describeSchedule(t.schedule)} (${t.timezone ?? "UTC"})` : "When started"}</dd>
                <dt className={muted}>Nodes</dt>
                <dd>{t.nodes.map((n) => n.label).join(" → ")}</dd>
                <dt className={muted}>Needs</dt>
                <dd>
                  <ul className="space-y-0.5">
                    {t.connections.map((slot) => {
                      const have = index?.connections.filter((c) => slot.types.includes(c.type)).length;
                      return (
                        <li key={slot.key}>
                          {slot.label}
                          {have !== undefined && (
                            <span
                              className={
                                have ? "text-emerald-700 dark:text-emerald-300" : "text-amber-800 dark:text-amber-200"
                              }
                            >
                              {" "}
                              · {have ? `you have ${have}` : "none yet"}
                            </span>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                </dd>
                {writes.length > 0 && (
                  <>
                    <dt className={muted}>Writes</dt>
                    <dd>
                      {writes
                        .map(
                          (n) => `${n.label}${n.approval === "required" ? " (each write approved by a person)" : ""}`,
                        )
                        .join(", ")}
                    </dd>
                  </>
                )}
              </dl>
              <div className="mt-auto">
                <Link
                  href={`/${teamId}/workflows/new?template=${t.id}`}
                  className="btn-secondary"
                  aria-label={`Use this template: ${t.name}`}
                >
                  Use this template
                </Link>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
