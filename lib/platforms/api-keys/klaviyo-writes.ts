import "server-only";
import { z } from "zod";
import { providerFetch } from "@/lib/platforms/kit/provider-fetch";
import { apiKeyHeaders, nonsense, refuseOrUnavailable } from "@/lib/platforms/api-keys/api-key-providers";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";
import { apiKeyTypes } from "@/lib/platforms/api-keys/api-key-providers";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(apiKeyTypes, type);

// Klaviyo's JSON:API (revision header as the reads): a list holds profiles by ID, so adding
// someone by email is two calls: create or update the profile, then relate it to the list.

const API = "https://a.klaviyo.com/api";
const PROVIDER = "Klaviyo";

const keyOf = ({ credentials }: OperationContext) =>
  credentials.kind === "manual" ? (credentials.credentials.private_api_key ?? "") : credentials.tokens.accessToken;
const writeHeaders = (ctx: OperationContext) => ({
  ...apiKeyHeaders.klaviyo(keyOf(ctx)),
  "content-type": "application/vnd.api+json",
});

/** The list (its name), or Klaviyo's refusal (404 not_found for an unknown ID). */
async function listOf(ctx: OperationContext, listId: string) {
  // https://developers.klaviyo.com/en/reference/get_list
  const res = await providerFetch(PROVIDER, hosted(ctx.connection.type), `${API}/lists/${listId}`, {
    headers: apiKeyHeaders.klaviyo(keyOf(ctx)),
  });
  if (res.status !== 200) refuseOrUnavailable(PROVIDER, res);
  const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : null;
  if (!data) nonsense(PROVIDER, "GET /api/lists/{id}", res);
  const attributes = isObject(data.attributes) ? data.attributes : {};
  return { list_id: listId, list_name: typeof attributes.name === "string" ? attributes.name : null };
}

const name = (what: string) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(255)
    .optional()
    .describe(`The person's ${what} (set on the profile; leave out to keep it).`);

const klaviyoListAddProfile = defineWrite({
  id: "klaviyo.list.add_profile",
  idempotent: true,
  title: "Add a profile to a Klaviyo list",
  consent: "Add profiles to lists",
  description:
    "Adds a person by email to a Klaviyo list (add subscriber, add to list, add contact to audience): checks the list exists, creates or updates their profile (POST /api/profile-import), then adds it to the list (POST /api/lists/{id}/relationships/profiles). " +
    "This does not record email marketing consent (it does not subscribe them to marketing). Returns the profile ID, whether it was created, and the list.",
  types: ["klaviyo"],
  credits: 1,
  example: { list_id: "Y6nRLr", email: "jane.doe@example.com", first_name: "Jane" },
  input: {
    list_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,64}$/, "must be a Klaviyo list ID like Y6nRLr")
      .describe("The list's ID, e.g. Y6nRLr (in the list's URL in Klaviyo, or its settings)."),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email("must be an email address"))
      .describe("The person's email address."),
    first_name: name("first name"),
    last_name: name("last name"),
  },
  summarize(input, connection, before) {
    const list =
      isObject(before) && typeof before.list_name === "string" && before.list_name ? ` '${before.list_name}'` : "";
    return `Add ${input.email} to Klaviyo list ${input.list_id}${list} in account ${connection.name ?? connection.externalId ?? connection.id}.`;
  },
  before: (ctx, input) => listOf(ctx, input.list_id),
  output: {
    list_id: z.string().describe("List ID"),
    list_name: z.string().nullable().describe("List"),
    profile_id: z.string().describe("Profile ID"),
    email: z.string().describe("Email"),
    profile_created: z.boolean().describe("A new profile was created"),
  },
  async run(ctx, input) {
    // The list first: a mistyped list ID is refused before any profile is created or changed.
    const list = await listOf(ctx, input.list_id);
    // https://developers.klaviyo.com/en/reference/create_or_update_profile
    const profile = await providerFetch(PROVIDER, hosted(ctx.connection.type), `${API}/profile-import`, {
      method: "POST",
      headers: writeHeaders(ctx),
      body: JSON.stringify({
        data: {
          type: "profile",
          attributes: {
            email: input.email,
            ...(input.first_name && { first_name: input.first_name }),
            ...(input.last_name && { last_name: input.last_name }),
          },
        },
      }),
    });
    if (profile.status !== 200 && profile.status !== 201) refuseOrUnavailable(PROVIDER, profile);
    const data = isObject(profile.body) && isObject(profile.body.data) ? profile.body.data : null;
    if (!data || typeof data.id !== "string" || !data.id) nonsense(PROVIDER, "POST /api/profile-import", profile);
    // https://developers.klaviyo.com/en/reference/add_profiles_to_list
    const added = await providerFetch(
      PROVIDER,
      hosted(ctx.connection.type),
      `${API}/lists/${input.list_id}/relationships/profiles`,
      {
        method: "POST",
        headers: writeHeaders(ctx),
        body: JSON.stringify({ data: [{ type: "profile", id: data.id }] }),
      },
    );
    if (added.status !== 204 && added.status !== 200) refuseOrUnavailable(PROVIDER, added);
    return {
      list_id: input.list_id,
      list_name: list.list_name,
      profile_id: data.id,
      email: input.email,
      profile_created: profile.status === 201,
    };
  },
});

export const operations: Operation[] = [klaviyoListAddProfile];
