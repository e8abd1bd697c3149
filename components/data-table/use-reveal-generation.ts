"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A number that changes each time React re-shows this component after hiding it (Next keeps
 * the previous route alive in a hidden <Activity>, which runs effect cleanups on hide and the
 * effects again on reveal). The virtualizer unsubscribes its scroll and resize observers on
 * hide and does not subscribe again for the same element, so the body is remounted by keying
 * it with this number; otherwise a page reached with the back button shows no rows.
 */
export function useRevealGeneration() {
  const hidden = useRef(false);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (hidden.current) {
      hidden.current = false;
      setGeneration((g) => g + 1);
    }
    return () => {
      hidden.current = true;
    };
  }, []);
  return generation;
}
