import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { EditWorkflow } from "@/components/workflows/edit-workflow";

export const metadata = { title: "Edit workflow · Patchbay" };

/** The editor of a saved workflow. The role decides what the Active switch allows; the API enforces the same rule. */
export default async function EditWorkflowPage({ params }: { params: Promise<{ team: string; id: string }> }) {
  const { team, id } = await params;
  const user = await requireUser(`/${team}/workflows/${id}/edit`);
  const membership = user.teams.find((t) => t.id === team);
  if (!membership) notFound();
  return (
    <div className="space-y-4">
      <div>
        <Link
          href={`/${team}/workflows/${id}`}
          className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
        >
          ← Back to the workflow
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Edit workflow</h1>
      </div>
      <EditWorkflow teamId={team} workflowId={id} isOwner={membership.role === "owner"} />
    </div>
  );
}
