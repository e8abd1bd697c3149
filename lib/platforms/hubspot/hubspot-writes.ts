import "server-only";
import { z } from "zod";
import { hubspotApiCall, hubspotGetOrNull } from "@/lib/platforms/hubspot/hubspot-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

const CONTACTS_URL = "https://api.hubapi.com/crm/v3/objects/contacts";
/** Properties HubSpot sets itself; a write naming one is refused (READ_ONLY_VALUE). */
const READ_ONLY = new Set(["hs_object_id", "createdate", "lastmodifieddate"]);

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("must be an email address"))
  .describe(
    "The contact's email address: HubSpot's unique key for contacts (an existing contact with it is updated, else one is created).",
  );

const properties = z
  .record(
    z
      .string()
      .regex(/^[a-z0-9_]{1,100}$/, "is not a HubSpot property name (internal names are lowercase, e.g. firstname)"),
    z.string().max(65_536),
  )
  .refine((p) => Object.keys(p).length <= 100, "at most 100 properties")
  .refine((p) => !("email" in p), "email is given as `email`, not among the properties")
  .refine(
    (p) => !Object.keys(p).some((k) => READ_ONLY.has(k)),
    `${[...READ_ONLY].join(", ")} are set by HubSpot and cannot be written`,
  )
  .default({})
  .describe(
    "Contact properties to set, by internal name, each value a string: firstname, lastname, phone, company, jobtitle, website, lifecyclestage (subscriber, lead, marketingqualifiedlead, salesqualifiedlead, opportunity, customer, evangelist, other) … An empty string clears a value.",
  );

const shown = (p: Record<string, string>) =>
  Object.entries(p)
    .slice(0, 6)
    .map(([k, v]) => `${k}=${v.length > 40 ? `${v.slice(0, 37)}…` : v}`)
    .join(", ");

const hubspotContactUpsert = defineWrite({
  id: "hubspot.contact.upsert",
  idempotent: true,
  title: "Create or update a HubSpot contact",
  consent: "Create and update contacts",
  description:
    "Creates a contact in the HubSpot CRM, or updates the one with the same email address (CRM v3 contacts batch/upsert keyed by email): add, create, save, update or sync a contact, lead or customer and set its properties (first and last name, phone, company, job title, lifecycle stage …). " +
    "Returns the contact's ID, whether it was new, and its properties after the write.",
  types: ["hubspot"],
  credits: 1,
  example: {
    email: "jane.doe@example.com",
    properties: { firstname: "Jane", lastname: "Doe", company: "Acme", lifecyclestage: "lead" },
  },
  input: { email, properties },
  summarize(input, connection, before) {
    const existing = isObject(before) && isObject(before.contact) ? before.contact : null;
    const what = Object.keys(input.properties).length ? ` with ${shown(input.properties)}` : "";
    const portal = connection.name ?? connection.externalId ?? connection.id;
    return existing
      ? `Update HubSpot contact ${input.email} (ID ${String(existing.id)})${what} in portal ${portal}.`
      : `${before === undefined ? "Create or update" : "Create"} HubSpot contact ${input.email}${what} in portal ${portal}.`;
  },
  async before({ connection, credentials }, input) {
    const asked = ["email", ...Object.keys(input.properties)];
    // https://developers.hubspot.com/docs/api/crm/contacts (retrieve a contact by email: idProperty=email)
    const url = urlWith(`${CONTACTS_URL}/${encodeURIComponent(input.email)}`, {
      idProperty: "email",
      properties: asked.join(","),
    });
    const found = await hubspotGetOrNull(connection.type, url, credentials, "the contact read");
    if (!found) return { contact: null };
    const props = isObject(found.properties) ? found.properties : {};
    return {
      contact: { id: String(found.id ?? ""), properties: Object.fromEntries(asked.map((p) => [p, props[p] ?? null])) },
    };
  },
  output: {
    id: z.string().describe("Contact ID"),
    new: z.boolean().describe("A new contact was created"),
    email: z.string().describe("Email"),
    properties: z
      .record(z.string(), z.string().nullable())
      .describe("The properties written, by internal name, as HubSpot now holds them (email included)"),
    updated_at: z.string().nullable().describe("Updated at"),
  },
  async run({ connection, credentials }, input) {
    // https://developers.hubspot.com/docs/api-reference/legacy/crm/objects/contacts/batch/upsert-contacts
    const body = await hubspotApiCall(
      connection.type,
      `${CONTACTS_URL}/batch/upsert`,
      credentials,
      "the contacts batch upsert",
      {
        inputs: [{ id: input.email, idProperty: "email", properties: { email: input.email, ...input.properties } }],
      },
    );
    const result = (Array.isArray(body.results) ? body.results : []).find(isObject);
    if (!result)
      throw new ProviderUnavailable(
        "HubSpot",
        `HubSpot answered the contacts batch upsert without a result (status ${String(body.status ?? "none")}).`,
      );
    const props = isObject(result.properties) ? result.properties : {};
    return {
      id: String(result.id ?? ""),
      new: result.new === true,
      email: input.email,
      properties: Object.fromEntries(["email", ...Object.keys(input.properties)].map((p) => [p, props[p] ?? null])),
      updated_at: result.updatedAt ?? null,
    };
  },
});

export const operations: Operation[] = [hubspotContactUpsert];
