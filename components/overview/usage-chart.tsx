"use client";

import { useEffect, useRef } from "react";
import type { DailyUsage } from "@/lib/schemas/dashboard";
import { formatCredits, formatDay } from "@/components/overview/format";
import { ScrollRegion } from "@/components/ui/scroll-region";

const ALL_SERVICES = [
  { type: "workflow", label: "Workflows", fill: "fill-indigo-500", swatch: "bg-indigo-500", always: true },
  { type: "agent", label: "Agents", fill: "fill-emerald-500", swatch: "bg-emerald-500", always: false },
  { type: "copilot", label: "Copilot", fill: "fill-amber-500", swatch: "bg-amber-500", always: false },
  { type: "mcp", label: "MCP", fill: "fill-sky-500", swatch: "bg-sky-500", always: true },
] as const;

const SLOT = 24;
const BAR = 16;
const PLOT_H = 160;
const LEFT = 44;
const TOP = 8;
const BOTTOM = 22;

/** A "nice" axis maximum (1, 2, 2.5 or 5 times a power of ten) at or above the largest day. */
function niceMax(value: number) {
  if (value <= 0) return 10;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((m) => m >= value)!;
}

/** Stacked bars per day of the period, drawn as inline SVG; a table carries the same numbers for screen readers. */
export function UsageChart({ usage }: { usage: DailyUsage }) {
  const max = niceMax(Math.max(0, ...usage.days.map((d) => d.total)));
  const width = LEFT + usage.days.length * SLOT;
  const height = TOP + PLOT_H + BOTTOM;
  const y = (credits: number) => TOP + PLOT_H - (credits / max) * PLOT_H;
  const today = Math.floor(usage.now / 86_400) * 86_400;
  const total = usage.days.reduce((sum, d) => sum + d.total, 0);
  const labelEvery = Math.ceil(usage.days.length / 8);
  // Workflows and MCP always; a service the team has not used this period (agents, Copilot) is
  // not listed as if it were there.
  const SERVICES = ALL_SERVICES.filter((s) => s.always || usage.totals[s.type] > 0);
  // On a screen narrower than the chart, it opens scrolled to today (the days after it are empty).
  const region = useRef<HTMLDivElement>(null);
  const todayIndex = usage.days.findIndex((d) => d.day === today);
  useEffect(() => {
    const el = region.current;
    if (!el || el.scrollWidth <= el.clientWidth || todayIndex < 0) return;
    const todayRight = ((LEFT + (todayIndex + 2) * SLOT) / width) * el.scrollWidth;
    el.scrollLeft = Math.max(0, todayRight - el.clientWidth);
  }, [todayIndex, width]);
  return (
    <figure className="space-y-3">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Legend">
        {SERVICES.map((s) => (
          <li key={s.type} className="flex items-center gap-1.5">
            <span aria-hidden className={`inline-block size-3 rounded-sm ${s.swatch}`} />
            {s.label}{" "}
            <span className="tabular-nums text-zinc-500 dark:text-zinc-400">{formatCredits(usage.totals[s.type])}</span>
          </li>
        ))}
      </ul>
      <ScrollRegion label="Credits per day" ref={region}>
        <svg
          data-testid="usage-chart"
          role="img"
          aria-label={`Credits used per day from ${formatDay(usage.period_start)} to ${formatDay(usage.period_end - 1)}: ${formatCredits(total)} in total, split by service type.`}
          viewBox={`0 0 ${width} ${height}`}
          className="h-auto w-full min-w-[36rem] text-zinc-500 dark:text-zinc-400"
        >
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line
                x1={LEFT}
                x2={width}
                y1={y(max * f)}
                y2={y(max * f)}
                className="stroke-zinc-200 dark:stroke-zinc-800"
                strokeWidth={1}
              />
              <text x={LEFT - 6} y={y(max * f) + 4} textAnchor="end" fontSize={10} fill="currentColor">
                {formatCredits(max * f)}
              </text>
            </g>
          ))}
          {usage.days.map((d, i) => {
            const x = LEFT + i * SLOT + (SLOT - BAR) / 2;
            let base = 0;
            return (
              <g key={d.day}>
                {d.day === today && (
                  <rect
                    x={LEFT + i * SLOT}
                    y={TOP}
                    width={SLOT}
                    height={PLOT_H}
                    className="fill-zinc-100 dark:fill-zinc-800/60"
                  />
                )}
                {SERVICES.map((s) => {
                  const value = d[s.type];
                  if (!value) return null;
                  const top = y(base + value);
                  const h = y(base) - top;
                  base += value;
                  return (
                    <rect
                      key={s.type}
                      data-service={s.type}
                      x={x}
                      y={top}
                      width={BAR}
                      height={Math.max(h, 1)}
                      rx={2}
                      className={s.fill}
                    >
                      <title>{`${formatDay(d.day)} · ${s.label}: ${formatCredits(value)} credits`}</title>
                    </rect>
                  );
                })}
                {/* A day's label next to "Today" would run into it. */}
                {((i % labelEvery === 0 && (todayIndex < 0 || Math.abs(i - todayIndex) > 1)) || d.day === today) && (
                  <text
                    x={LEFT + i * SLOT + SLOT / 2}
                    y={height - 6}
                    textAnchor="middle"
                    fontSize={10}
                    fill="currentColor"
                    fontWeight={d.day === today ? 700 : 400}
                  >
                    {d.day === today ? "Today" : formatDay(d.day)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </ScrollRegion>
      <figcaption className="text-xs text-zinc-500 dark:text-zinc-400">
        Credits per UTC day this billing period; hover a bar for its numbers.
      </figcaption>
      {/* In a clipped box: a table ignores sr-only's 1 px size, and its real size would stretch the page. */}
      <div className="sr-only">
        <table>
          <caption>Credits used per day by service type</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {SERVICES.map((s) => (
                <th key={s.type} scope="col">
                  {s.label}
                </th>
              ))}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {usage.days
              .filter((d) => d.total > 0)
              .map((d) => (
                <tr key={d.day}>
                  <th scope="row">{formatDay(d.day)}</th>
                  {SERVICES.map((s) => (
                    <td key={s.type}>{d[s.type]}</td>
                  ))}
                  <td>{d.total}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
