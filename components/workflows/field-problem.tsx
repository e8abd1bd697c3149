// A form field's problem beside it (the field points at it with aria-describedby and is marked
// aria-invalid), and the mark of a field that must be filled in: the editor's fields say what is
// wrong where it is wrong, not only in the list under the form.

export function FieldProblem({ id, problem }: { id: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p id={id} data-testid="field-problem" className="mt-1 text-xs font-medium text-rose-700 dark:text-rose-300">
      <span aria-hidden="true">⚠ </span>
      {problem}
    </p>
  );
}

/** Beside a field's label, outside it (the label stays the field's name). */
export function RequiredMark() {
  return <span className="text-xs font-medium text-rose-700 dark:text-rose-300">required</span>;
}
