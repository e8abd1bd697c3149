import { Patchbay, PatchbayError, type PatchbayOptions } from "@patchbay/client";
import { expect } from "@playwright/test";
import { baseURL, type SeededUser } from "../../../e2e/fixtures";

/** A client for one seeded user's API key against the run's server (or `baseUrl`). */
export function clientFor(user: SeededUser | { key: string }, options: Partial<PatchbayOptions> = {}) {
  return new Patchbay({ baseUrl: baseURL(), apiKey: user.key, ...options });
}

/** The PatchbayError a call rejects with (fails the test when it resolves). */
export async function failure(call: Promise<unknown>): Promise<PatchbayError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome))
    throw new Error(`expected a PatchbayError, got ${JSON.stringify(outcome.value).slice(0, 200)}`);
  expect(outcome.error).toBeInstanceOf(PatchbayError);
  return outcome.error as PatchbayError;
}
