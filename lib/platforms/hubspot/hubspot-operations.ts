import "server-only";
import { z } from "zod";
import { hubspotApiCall } from "@/lib/platforms/hubspot/hubspot-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

const CONTACTS_URL = "https://api.hubapi.com/crm/v3/objects/contacts";
const DEFAULT_PROPERTIES = [
  "email",
  "firstname",
  "lastname",
  "company",
  "jobtitle",
  "phone",
  "lifecyclestage",
  "createdate",
  "lastmodifieddate",
];

const hubspotListContacts = defineRead({
  toolName: "hubspot_list_contacts",
  title: "List or search HubSpot contacts",
  consent: "Read the contacts in your CRM",
  description:
    "Contacts from the HubSpot CRM (CRM v3 objects/contacts): ID and properties (email, name, company, job title, lifecycle stage … by default). " +
    "With `query`, a full-text search over name, email, phone and company (contacts/search, most recently modified first); without it, the list in ID order. Page with `after` (the previous answer's next_after).",
  types: ["hubspot"],
  id: "hubspot.list_contacts",
  credits: 2,
  cacheTtlSeconds: 60,
  example: { query: "jane", limit: 10 },
  input: {
    query: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .optional()
      .describe("Search text (matches name, email, phone, company); leave out to list all contacts."),
    properties: z
      .array(
        z
          .string()
          .regex(/^[a-z0-9_]+$/, "is not a HubSpot property name")
          .max(100),
      )
      .min(1)
      .max(50)
      .default(DEFAULT_PROPERTIES)
      .describe(`Contact properties to return (internal names; default ${DEFAULT_PROPERTIES.join(", ")}).`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(50)
      .describe("How many contacts to return at most (1-100, HubSpot's page limit; default 50)."),
    after: z.string().max(200).optional().describe("next_after of the previous page, to continue."),
  },
  output: {
    total: z.number().optional().describe("Contacts matching the search (searches only)"),
    contacts: z
      .array(
        z
          .object({
            id: z.string().nullable().describe("Contact ID"),
            email: z.string().nullable().optional().describe("Email"),
            firstname: z.string().nullable().optional().describe("First name"),
            lastname: z.string().nullable().optional().describe("Last name"),
            company: z.string().nullable().optional().describe("Company"),
            jobtitle: z.string().nullable().optional().describe("Job title"),
            phone: z.string().nullable().optional().describe("Phone"),
            lifecyclestage: z.string().nullable().optional().describe("Lifecycle stage, e.g. lead"),
            createdate: z.string().nullable().optional().describe("Created at"),
            lastmodifieddate: z.string().nullable().optional().describe("Last modified at"),
          })
          .catchall(z.string().nullable()),
      )
      .describe(
        "Contacts: the ID and the properties asked for, by internal name (the default properties unless others are asked for)",
      ),
    next_after: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const body = args.query
      ? await hubspotApiCall(connection.type, `${CONTACTS_URL}/search`, credentials, "the contacts search", {
          query: args.query,
          limit: args.limit,
          properties: args.properties,
          sorts: [{ propertyName: "lastmodifieddate", direction: "DESCENDING" }],
          ...(args.after && { after: args.after }),
        })
      : await hubspotApiCall(
          connection.type,
          urlWith(CONTACTS_URL, {
            limit: String(args.limit),
            properties: args.properties.join(","),
            archived: "false",
            after: args.after,
          }),
          credentials,
          "the contacts list",
        );
    const contacts = (Array.isArray(body.results) ? body.results : []).filter(isObject).map((c) => ({
      id: c.id ?? null,
      ...Object.fromEntries(args.properties.map((p) => [p, isObject(c.properties) ? (c.properties[p] ?? null) : null])),
    }));
    const next = isObject(body.paging) && isObject(body.paging.next) ? body.paging.next.after : undefined;
    return {
      ...(typeof body.total === "number" && { total: body.total }),
      contacts,
      next_after: typeof next === "string" ? next : null,
    };
  },
});

export const operations: Operation[] = [hubspotListContacts];
