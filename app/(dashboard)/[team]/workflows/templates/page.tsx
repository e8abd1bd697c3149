import Link from "next/link";
import { TemplateGallery } from "@/components/workflows/template-gallery";

export const metadata = { title: "Workflow templates · Patchbay" };

export default async function WorkflowTemplatesPage({ params }: { params: Promise<{ team: string }> }) {
  const { team } = await params;
  return (
    <div className="space-y-4">
      <div>
        <Link
          href={`/${team}/workflows`}
          className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
        >
          ← Workflows
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">New workflow from a template</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Ready workflows: choose one, pick your connections for it, and save. You can change every node afterwards.
        </p>
      </div>
      <TemplateGallery teamId={team} />
    </div>
  );
}
