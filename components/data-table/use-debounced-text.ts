"use client";

import { useEffect, useRef, useState } from "react";

// Long enough to finish a word or paste an id, short enough to feel live.
const DEBOUNCE_MS = 450;

/**
 * A text input kept in step with a value in the URL: typing commits after a pause (`type`), Enter
 * at once (`commit`), and the URL changing under it (the back button, a link) resets it. A commit
 * after the pause uses `onChange` as it is then, not as it was when typing began; a value `refuse`
 * answers for is held back.
 */
export function useDebouncedText(
  value: string | undefined,
  onChange: (v: string | undefined) => void,
  refuse?: (v: string) => unknown,
) {
  const [text, setText] = useState(value ?? "");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => setText(value ?? ""), [value]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const latest = useRef({ value, onChange, refuse });
  useEffect(() => {
    latest.current = { value, onChange, refuse };
  }, [value, onChange, refuse]);
  const commit = (v: string) => {
    if (timer.current) clearTimeout(timer.current);
    const next = v.trim() || undefined;
    if (next && latest.current.refuse?.(next)) return;
    if (next !== (latest.current.value || undefined)) latest.current.onChange(next);
  };
  const type = (v: string) => {
    setText(v);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(v), DEBOUNCE_MS);
  };
  const clear = () => {
    setText("");
    commit("");
  };
  return { text, type, commit, clear };
}
