import { formatCredits } from "@/components/overview/format";

const W = 64;
const H = 20;
const BAR = 12;

/**
 * Credits of the three billing periods before this one and of this one, as four small bars (this
 * period's in colour: it is still running); the numbers are its accessible name and tooltip.
 */
export function SpendTrend({ trend, current }: { trend: number[]; current: number }) {
  const values = [...trend, current];
  const max = Math.max(1, ...values);
  const slot = W / values.length;
  const words = `Credits per billing period, oldest first: ${trend.map(formatCredits).join(", ")}; this period ${formatCredits(current)}`;
  return (
    <svg
      role="img"
      aria-label={words}
      data-testid="spend-trend"
      viewBox={`0 0 ${W} ${H}`}
      width={W}
      height={H}
      className="align-middle"
    >
      <title>{words}</title>
      {values.map((v, i) => {
        const h = v ? Math.max(2, (v / max) * H) : 1;
        return (
          <rect
            key={i}
            x={i * slot + (slot - BAR) / 2}
            y={H - h}
            width={BAR}
            height={h}
            rx={1.5}
            className={i === values.length - 1 ? "fill-indigo-500" : "fill-zinc-300 dark:fill-zinc-600"}
          />
        );
      })}
    </svg>
  );
}
