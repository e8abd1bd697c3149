"use client";

import { useEffect, useState } from "react";

function remaining(ms: number): string {
  if (ms <= 0) return "now";
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.ceil(ms / 1000)} s`;
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** "expires in 23 h 59 min", counting down live; the server renders the first value. */
export function ExpiryCountdown({ expiresAt, now }: { expiresAt: number; now: number }) {
  const [left, setLeft] = useState(expiresAt - now);
  useEffect(() => {
    const tick = () => setLeft(expiresAt - Date.now());
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return (
    <time dateTime={new Date(expiresAt).toISOString()} data-testid="expiry-countdown">
      {left > 0 ? `expires in ${remaining(left)}` : "has expired — reload the page"}
    </time>
  );
}
