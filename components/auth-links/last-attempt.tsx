import type { AuthLinkAttempt, AuthLinkStatusValue } from "@/lib/queries/auth-links";
import { LocalTime } from "@/components/time/local-time";

/**
 * How the latest press of Continue on a link went, when it did not connect: still at the
 * provider, denied by the account owner, or failed (with the reason the connect page gave). A
 * pending link says until when it still works; the webhook's auth_link.failed is no longer the
 * only place a denial shows.
 */
export function LastAttempt({
  attempt,
  status,
  expiresAt,
}: {
  attempt: AuthLinkAttempt | null;
  status: AuthLinkStatusValue;
  expiresAt: number;
}) {
  if (!attempt || status === "connected" || attempt.outcome === "connected") return null;
  const stillWorks =
    status === "pending" ? (
      <>
        {" "}
        — the link still works until <LocalTime seconds={expiresAt / 1000} />.
      </>
    ) : (
      "."
    );
  const tone = attempt.answered_at ? "text-rose-700 dark:text-rose-300" : "text-zinc-600 dark:text-zinc-400";
  return (
    <p className={`text-xs [overflow-wrap:anywhere] ${tone}`} data-testid="auth-link-last-attempt">
      {!attempt.answered_at ? (
        <>
          Sign-in started <LocalTime seconds={attempt.started_at / 1000} />: the account owner has not come back from
          the provider yet
        </>
      ) : attempt.outcome === "access_denied" ? (
        <>
          Denied by the account owner at <LocalTime seconds={attempt.answered_at / 1000} />
        </>
      ) : (
        <>
          Sign-in failed at <LocalTime seconds={attempt.answered_at / 1000} />
          {attempt.detail ? `: ${attempt.detail.replace(/\.$/, "")}` : ""}
        </>
      )}
      {stillWorks}
    </p>
  );
}
