"use client";

import Link from "next/link";
import { ErrorNote } from "@/components/ui/error-note";
import { useCatalogue } from "@/components/workflows/catalogue";
import { EditorSkeleton } from "@/components/workflows/editor-skeleton";
import { TemplateSetup } from "@/components/workflows/template-setup";
import { WorkflowEditor } from "@/components/workflows/workflow-editor";
import { findWorkflowTemplate } from "@/lib/workflows/workflow-templates";

/**
 * /workflows/new: an empty editor, or (?template=…) the template's setup. Both wait for the
 * catalogue, which the form is built from.
 */
export function NewWorkflow({
  teamId,
  isOwner,
  templateId,
}: {
  teamId: string;
  isOwner: boolean;
  templateId: string | null;
}) {
  const { index, error, refetch } = useCatalogue(teamId);
  const template = templateId ? findWorkflowTemplate(templateId) : undefined;
  if (templateId && !template) {
    return (
      <div className="space-y-3">
        <ErrorNote error={`There is no template ${templateId}.`} title="Unknown template" />
        <Link href={`/${teamId}/workflows/templates`} className="btn-secondary">
          See the templates
        </Link>
      </div>
    );
  }
  if (error) {
    return (
      <div className="space-y-3">
        <ErrorNote error={error} title="The operations catalogue could not be loaded." />
        <button type="button" className="btn-secondary" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (!index) return <EditorSkeleton />;
  if (template) return <TemplateSetup teamId={teamId} isOwner={isOwner} catalogue={index} template={template} />;
  return (
    <WorkflowEditor
      teamId={teamId}
      isOwner={isOwner}
      catalogue={index}
      initial={{ name: "", nodes: [], schedule: null, timezone: null, active: true }}
      cancelHref={`/${teamId}/workflows`}
    />
  );
}
