"use client";

/**
 * An on/off switch: a checkbox with the switch role, so the keyboard, the label and the state
 * come from the browser. Put it inside the <label> that names it (or give `aria-label`).
 */
export function Switch(props: {
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  "aria-label"?: string;
  "aria-describedby"?: string;
}) {
  return (
    <span className="relative inline-flex">
      <input
        type="checkbox"
        role="switch"
        className="peer absolute inset-0 z-10 cursor-pointer opacity-0 disabled:cursor-default"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(ev) => props.onChange(ev.target.checked)}
        aria-label={props["aria-label"]}
        aria-describedby={props["aria-describedby"]}
      />
      <span
        aria-hidden
        className="relative h-5 w-9 rounded-full bg-zinc-300 transition-colors peer-checked:bg-indigo-600 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600 peer-disabled:opacity-60 after:absolute after:left-0.5 after:top-0.5 after:h-4 after:w-4 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:after:translate-x-4 dark:bg-zinc-700"
      />
    </span>
  );
}
