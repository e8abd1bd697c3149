"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  createWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  webhookKeys,
  type CreatedWebhookEndpoint,
  type WebhookEndpointPatch,
} from "@/lib/queries/webhooks";
import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-event-types";
import type { WebhookEndpointJson } from "@/lib/schemas/webhooks";
import { detailText } from "@/components/overview/format";
import { LocalTime } from "@/components/time/local-time";
import { Dialog } from "@/components/ui/dialog";
import { allTicked, EventTypesField } from "@/components/webhooks/event-types-field";
import { SecretReveal } from "@/components/webhooks/secret-reveal";

const InlineError = ({ error }: { error: unknown }) => (
  <p
    role="alert"
    className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-200"
  >
    {detailText(error)}
  </p>
);

/** ["*"] (every type) ticks every box. */
const selectedTypes = (events: string[]) => (events.includes("*") ? [...WEBHOOK_EVENT_TYPES] : events);

function UrlField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  // Not type="url" nor `required`: the API checks the address (scheme, private networks) and says what is wrong.
  return (
    <label className="block text-sm">
      <span className="font-medium">Endpoint URL</span>
      <input
        className="input mt-1 font-mono"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={2048}
        placeholder="https://example.com/webhooks/patchbay"
        data-autofocus
      />
      <span className="mt-1 block text-xs text-zinc-500 dark:text-zinc-400">
        Each event is POSTed here as JSON. A 2xx answer counts as delivered; anything else is retried with growing
        delays.
      </span>
    </label>
  );
}

function DescriptionField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <label className="block text-sm">
      <span className="font-medium">
        Description <span className="font-normal text-zinc-500 dark:text-zinc-400">(optional)</span>
      </span>
      <input
        className="input mt-1"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={200}
        placeholder="e.g. Billing service"
      />
    </label>
  );
}

function Actions({
  pending,
  label,
  disabled,
  onCancel,
}: {
  pending: boolean;
  label: string;
  disabled?: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="flex justify-end gap-2 pt-1">
      <button type="button" className="btn-secondary" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="btn-primary" disabled={pending || disabled}>
        {pending ? "Saving…" : label}
      </button>
    </div>
  );
}

/** Adds an endpoint, then shows its signing secret once; closing the dialog forgets it. */
export function AddEndpointDialog({ team, open, onClose }: { team: string; open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? "Endpoint added: copy its signing secret" : "Add webhook endpoint"}
      className="max-w-2xl"
    >
      {open &&
        (created ? (
          <SecretReveal secret={created.secret} onDone={close}>
            <p className="mt-2 break-all">
              Endpoint <span className="font-mono text-xs">{created.url}</span> receives{" "}
              {created.events.includes("*") ? "all events" : created.events.join(", ")}.
            </p>
          </SecretReveal>
        ) : (
          <AddEndpointForm team={team} onCreated={setCreated} onCancel={close} />
        ))}
    </Dialog>
  );
}

function AddEndpointForm({
  team,
  onCreated,
  onCancel,
}: {
  team: string;
  onCreated: (e: CreatedWebhookEndpoint) => void;
  onCancel: () => void;
}) {
  const client = useQueryClient();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES]);
  const create = useMutation({
    mutationFn: () =>
      createWebhookEndpoint(team, {
        url,
        ...(description.trim() && { description }),
        ...(!allTicked(events) && { events }),
      }),
    onSuccess: (endpoint) => {
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: webhookKeys.endpoints(team) });
      onCreated(endpoint);
    },
  });
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <UrlField value={url} onChange={setUrl} />
      <DescriptionField value={description} onChange={setDescription} />
      <EventTypesField selected={events} onChange={setEvents} />
      {create.isError && <InlineError error={create.error} />}
      <Actions pending={create.isPending} label="Add endpoint" disabled={events.length === 0} onCancel={onCancel} />
    </form>
  );
}

/** URL, description and event types; only what changed is sent. */
export function EditEndpointDialog({
  team,
  endpoint,
  onClose,
}: {
  team: string;
  endpoint: WebhookEndpointJson | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={!!endpoint} onClose={onClose} title="Edit webhook endpoint" className="max-w-2xl">
      {endpoint && <EditEndpointForm team={team} endpoint={endpoint} onClose={onClose} />}
    </Dialog>
  );
}

function EditEndpointForm({
  team,
  endpoint,
  onClose,
}: {
  team: string;
  endpoint: WebhookEndpointJson;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? "");
  const [events, setEvents] = useState(selectedTypes(endpoint.events));
  const save = useMutation({
    mutationFn: (patch: WebhookEndpointPatch) => updateWebhookEndpoint(team, endpoint.id, patch),
    onSuccess: () => {
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: webhookKeys.endpoints(team) });
      onClose();
    },
  });
  const changes = (): WebhookEndpointPatch => {
    const patch: WebhookEndpointPatch = {};
    if (url.trim() !== endpoint.url) patch.url = url;
    if (description.trim() !== (endpoint.description ?? "")) patch.description = description.trim() || null;
    const before = selectedTypes(endpoint.events);
    const wasAll = endpoint.events.includes("*");
    if (
      allTicked(events) ? !wasAll : wasAll || events.length !== before.length || events.some((t) => !before.includes(t))
    )
      patch.events = allTicked(events) ? null : events;
    return patch;
  };
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const patch = changes();
        if (Object.keys(patch).length === 0) onClose();
        else save.mutate(patch);
      }}
    >
      <UrlField value={url} onChange={setUrl} />
      <DescriptionField value={description} onChange={setDescription} />
      <EventTypesField selected={events} onChange={setEvents} />
      {save.isError && <InlineError error={save.error} />}
      <Actions pending={save.isPending} label="Save changes" disabled={events.length === 0} onCancel={onClose} />
    </form>
  );
}

/** Confirms, rotates, then shows the new secret once: one dialog, so closing the first step cannot close the second. */
export function RotateSecretDialog({
  team,
  endpoint,
  onClose,
}: {
  team: string;
  endpoint: WebhookEndpointJson | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [rotated, setRotated] = useState<CreatedWebhookEndpoint | null>(null);
  const rotate = useMutation({
    mutationFn: (id: string) => rotateWebhookSecret(team, id),
    onSuccess: (result) => {
      setRotated(result);
      // A background refetch: it never rejects (a failure shows in the query's own state).
      void client.invalidateQueries({ queryKey: webhookKeys.endpoints(team) });
    },
  });
  const close = () => {
    setRotated(null);
    rotate.reset();
    onClose();
  };
  return (
    <Dialog
      open={!!endpoint}
      onClose={close}
      title={rotated ? "New signing secret" : "Rotate the signing secret?"}
      className={rotated ? "max-w-2xl" : "max-w-md"}
    >
      {rotated ? (
        <SecretReveal secret={rotated.secret} onDone={close}>
          <p className="mt-2">
            The old secret keeps verifying for 24 hours
            {rotated.previous_secret_expires_at ? (
              <>
                , until <LocalTime seconds={rotated.previous_secret_expires_at / 1000} className="font-medium" />
              </>
            ) : null}
            : until then every delivery is signed with both, so switch your receiver to the new one before that.
          </p>
        </SecretReveal>
      ) : endpoint ? (
        <>
          <div className="space-y-2 text-sm text-zinc-600 dark:text-zinc-300">
            <p className="break-all">
              A new secret signs every delivery to <span className="font-mono text-xs">{endpoint.url}</span> from now
              on. It is shown once, right after this.
            </p>
            <p>
              The current secret keeps verifying for 24 hours (each request carries a signature by both), so the
              receiver can switch over without dropping events.
            </p>
          </div>
          {rotate.isError && (
            <div className="mt-3">
              <InlineError error={rotate.error} />
            </div>
          )}
          <div className="mt-5 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={close} data-autofocus>
              Cancel
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => rotate.mutate(endpoint.id)}
              disabled={rotate.isPending}
            >
              {rotate.isPending ? "Working…" : "Rotate secret"}
            </button>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
