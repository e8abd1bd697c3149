"use client";

/** An error the API answered with: its status and the `detail` it gave. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
}

/**
 * The dashboard's fetch of the same /v1 routes integrators use, authenticated by the session
 * cookie, naming the team in the X-Patchbay-Team header (which also marks it as our own page's
 * request: a cross-site form cannot send a custom header).
 */
export async function apiFetch<T>(teamId: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, {
    ...init,
    credentials: "same-origin",
    headers: {
      "x-patchbay-team": teamId,
      ...(init.body ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok)
    throw new ApiRequestError(res.status, (body as { detail?: unknown } | null)?.detail ?? `HTTP ${res.status}`);
  return body as T;
}
