"use client";

import { useId } from "react";
import { ScheduleField, type ScheduleValue } from "@/components/workflows/schedule-field";
import { FieldProblem } from "@/components/workflows/field-problem";
import type { TriggerType } from "@/components/workflows/trigger-api";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-event-types";

/** What starts a workflow, as the editor holds it: the schedule's fields stay while another trigger is chosen. */
export type TriggerValue = { type: TriggerType; schedule: ScheduleValue; events: string[] };

const TRIGGERS: readonly [TriggerType, string, string][] = [
  ["manual", "Manual", "Only when started: Run now, the API or the command line."],
  ["schedule", "On a schedule", "A cron expression in a time zone."],
  ["webhook", "Webhook", "A POST to its own URL; the JSON body is {{trigger.body…}}."],
  ["event", "Events", "Events of this team; the event is {{trigger.event…}}."],
];

const label = "mb-1 block text-sm font-medium";
const help = "text-xs text-zinc-600 dark:text-zinc-400";

/**
 * The trigger picker: manual, a schedule (with the schedule's own fields), a webhook URL, or
 * events of the team (chosen from the webhook catalogue, each with what it means). Any workflow
 * can also be started by hand and through the API.
 */
export function TriggerField({
  teamId,
  value,
  onChange,
  hasWebhookUrl,
  problems = {},
}: {
  teamId: string;
  value: TriggerValue;
  onChange: (next: TriggerValue) => void;
  /** The saved workflow already has a URL: saving keeps it (rotation is on the workflow's page). */
  hasWebhookUrl: boolean;
  problems?: { schedule?: string; timezone?: string; trigger?: string; events?: string };
}) {
  const id = useId();
  const choose = (type: TriggerType) =>
    onChange({
      ...value,
      type,
      schedule:
        type === "schedule"
          ? { ...value.schedule, mode: "cron", cron: value.schedule.cron.trim() ? value.schedule.cron : "0 9 * * 1" }
          : { ...value.schedule, mode: "manual" },
    });
  const toggle = (event: string, on: boolean) =>
    onChange({
      ...value,
      events: on
        ? WEBHOOK_EVENT_TYPES.filter((t) => t === event || value.events.includes(t))
        : value.events.filter((t) => t !== event),
    });
  return (
    <div className="space-y-4">
      <fieldset aria-describedby={problems.trigger ? `${id}-trigger-problem` : undefined}>
        <legend className={label}>What starts it</legend>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4">
          {TRIGGERS.map(([type, title, description]) => (
            <div
              key={type}
              className={`flex items-start gap-2 rounded-lg border p-2.5 text-sm ${
                value.type === type
                  ? "border-indigo-500 bg-indigo-50/60 dark:border-indigo-400 dark:bg-indigo-950/30"
                  : "border-zinc-200 dark:border-zinc-800"
              }`}
            >
              <input
                id={`${id}-trigger-${type}`}
                type="radio"
                name={`${id}-trigger`}
                className="mt-1 cursor-pointer"
                checked={value.type === type}
                aria-describedby={`${id}-trigger-${type}-help`}
                onChange={() => choose(type)}
              />
              <span>
                <label htmlFor={`${id}-trigger-${type}`} className="cursor-pointer font-medium">
                  {title}
                </label>
                <span id={`${id}-trigger-${type}-help`} className={`block ${help}`}>
                  {description}
                </span>
              </span>
            </div>
          ))}
        </div>
        <FieldProblem id={`${id}-trigger-problem`} problem={problems.trigger} />
      </fieldset>

      {value.type === "schedule" && (
        <ScheduleField
          teamId={teamId}
          value={value.schedule}
          onChange={(schedule) => onChange({ ...value, schedule })}
          problems={{ schedule: problems.schedule, timezone: problems.timezone }}
          showMode={false}
        />
      )}

      {value.type === "webhook" && (
        <p
          className={`rounded-lg border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800`}
          data-testid="webhook-help"
        >
          {hasWebhookUrl
            ? "It keeps its URL. To replace the URL (if it leaked), use Rotate URL on the workflow's page."
            : "Saving gives it a URL of its own, shown once, with a curl example: copy it then, it cannot be read back later."}{" "}
          A POST with a JSON object body starts a run while it is active.
        </p>
      )}

      {value.type === "event" && (
        <fieldset
          aria-describedby={`${id}-events-help${problems.events ? ` ${id}-events-problem` : ""}`}
          aria-invalid={problems.events ? true : undefined}
        >
          <legend className={label}>Events that start it</legend>
          <p id={`${id}-events-help`} className={`mb-2 ${help}`}>
            One run per event of this team that happens while it is active. A run started by an event never starts the
            workflows already in its chain.
          </p>
          <ul className="grid grid-cols-1 gap-2 md:grid-cols-2" data-testid="trigger-events">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <li key={type} className="flex items-start gap-2 text-sm">
                <input
                  id={`${id}-event-${type}`}
                  type="checkbox"
                  className="mt-1 cursor-pointer"
                  checked={value.events.includes(type)}
                  aria-describedby={`${id}-event-${type}-help`}
                  onChange={(e) => toggle(type, e.target.checked)}
                />
                <span className="min-w-0">
                  <label htmlFor={`${id}-event-${type}`} className="cursor-pointer font-mono text-xs font-medium">
                    {type}
                  </label>
                  <span id={`${id}-event-${type}-help`} className={`block ${help}`}>
                    {WEBHOOK_EVENT_DESCRIPTIONS[type]}
                  </span>
                </span>
              </li>
            ))}
          </ul>
          <FieldProblem id={`${id}-events-problem`} problem={problems.events} />
        </fieldset>
      )}
    </div>
  );
}
