import Link from "next/link";
import { Suspense } from "react";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { NewWorkflow } from "@/components/workflows/new-workflow";
import { findWorkflowTemplate } from "@/lib/workflows/workflow-templates";

export const metadata = { title: "New workflow · Patchbay" };

/**
 * A new workflow, empty or (?template=…) from a template. The role decides what the Active switch
 * allows; the API enforces the same rule.
 */
export default async function NewWorkflowPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<{ template?: string | string[] }>;
}) {
  const { team } = await params;
  const { template } = await searchParams;
  const user = await requireUser(`/${team}/workflows/new`);
  const membership = user.teams.find((t) => t.id === team);
  if (!membership) notFound();
  const templateId = typeof template === "string" && template ? template : null;
  const found = templateId ? findWorkflowTemplate(templateId) : undefined;
  return (
    <div className="space-y-4">
      <div>
        <Link
          href={templateId ? `/${team}/workflows/templates` : `/${team}/workflows`}
          className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
        >
          ← {templateId ? "Templates" : "Workflows"}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">
          {found ? `New workflow from “${found.name}”` : "New workflow"}
        </h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {found
            ? "Pick your connection for each step that needs one, then create it; or review every node in the editor first."
            : "Nodes run in order; each runs one operation and can use the outputs of the nodes before it."}
        </p>
      </div>
      <Suspense>
        <NewWorkflow teamId={team} isOwner={membership.role === "owner"} templateId={templateId} />
      </Suspense>
    </div>
  );
}
