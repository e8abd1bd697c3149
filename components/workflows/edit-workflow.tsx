"use client";

import { useEffect, useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { useCatalogue } from "@/components/workflows/catalogue";
import { EditorSkeleton } from "@/components/workflows/editor-skeleton";
import { WorkflowEditor } from "@/components/workflows/workflow-editor";
import { workflowQuery, type WorkflowDetail } from "@/lib/queries/workflows";
import type { TriggeredWorkflowDetail } from "@/components/workflows/trigger-api";
import { workflowBody } from "@/lib/schemas/workflows";

/** /workflows/{id}/edit: the editor over the saved workflow, once it and the catalogue are loaded. */
export function EditWorkflow({
  teamId,
  workflowId,
  isOwner,
}: {
  teamId: string;
  workflowId: string;
  isOwner: boolean;
}) {
  const { index, error: catalogueError } = useCatalogue(teamId);
  const workflow = useQuery({ ...workflowQuery(teamId, workflowId), staleTime: 0, refetchOnMount: "always" });
  // The form starts once from the saved state as it is now (not from a cached copy), and is not
  // reset by later refetches.
  const [saved, setSaved] = useState<WorkflowDetail | null>(null);
  useEffect(() => {
    if (!saved && workflow.data && !workflow.isFetching) setSaved(workflow.data);
  }, [saved, workflow.data, workflow.isFetching]);
  const problems = useMemo(
    () =>
      new Map(
        (saved?.nodes ?? []).flatMap((n) =>
          n.connection_id && n.connection_problem ? [[n.connection_id, n.connection_problem] as const] : [],
        ),
      ),
    [saved],
  );

  const error = workflow.error ?? catalogueError;
  if (error && !saved) return <ErrorNote error={error} title="This workflow could not be loaded." />;
  if (!index || !saved) return <EditorSkeleton />;
  return (
    <WorkflowEditor
      teamId={teamId}
      isOwner={isOwner}
      catalogue={index}
      workflowId={saved.id}
      initial={{ ...workflowBody(saved), trigger: (saved as TriggeredWorkflowDetail).trigger }}
      connectionProblems={problems}
      cancelHref={`/${teamId}/workflows/${saved.id}`}
    />
  );
}
