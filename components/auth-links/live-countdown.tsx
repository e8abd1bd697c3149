"use client";

import { useEffect, useState } from "react";

function format(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0
    ? `${h} h ${String(m).padStart(2, "0")} min ${String(sec).padStart(2, "0")} s`
    : `${m} min ${String(sec).padStart(2, "0")} s`;
}

/** "Expires in 23 h 59 min 58 s", ticking every second. */
export function LiveCountdown({ expiresAt }: { expiresAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = expiresAt - now;
  return (
    <time dateTime={new Date(expiresAt).toISOString()} data-testid="auth-link-countdown" className="tabular-nums">
      {left > 0 ? `Expires in ${format(left)}` : "Expired"}
    </time>
  );
}
