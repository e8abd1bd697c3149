import { conditionDraftOf, conditionWords } from "@/components/workflows/condition-model";
import type { NodeFields } from "@/components/workflows/editor-model";
import { referenceOf } from "@/components/workflows/output-fields";
import type { WorkflowNode } from "@/lib/queries/workflows";

/**
 * A saved node's decisions in words, on the workflow page: the list it goes through, the
 * condition it runs under, whether it asks for approval and whether the run goes on when it fails.
 */
export function NodeControlsSummary({ node, fields }: { node: WorkflowNode; fields: NodeFields }) {
  const lines: React.ReactNode[] = [];
  if (node.for_each !== undefined) {
    const ref = referenceOf(node.for_each);
    const list = ref === null ? undefined : fields.byRef(ref);
    lines.push(
      <>
        For each row of{" "}
        {list ? (
          <em className="font-medium not-italic">{list.name}</em>
        ) : (
          <code className="font-mono">{node.for_each}</code>
        )}
      </>,
    );
  }
  if (node.when !== undefined) {
    const words = conditionWords(conditionDraftOf(node.when), fields.byRef);
    const join = "any" in node.when ? " or " : " and ";
    lines.push(
      words ? (
        <>
          Only when{" "}
          {words.map((w, i) => (
            <span key={i}>
              {i > 0 && join}
              <em className="font-medium not-italic">{w.name}</em> {w.rest}
            </span>
          ))}
        </>
      ) : (
        "Only when its condition holds"
      ),
    );
  }
  if (node.approval === "required") lines.push("Asks for approval before each write");
  if (node.continue_on_error) lines.push("The run goes on if it fails");
  if (!lines.length) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-zinc-700 dark:text-zinc-300" data-testid="node-controls">
      {lines.map((line, i) => (
        <li key={i} className="wrap-anywhere">
          {line}
        </li>
      ))}
    </ul>
  );
}
