import "server-only";
import { z } from "zod";
import { GRAPH, META_HOSTS, graphGet, graphPostJson, isObject, metaType } from "@/lib/platforms/meta/meta-provider";
import { whatsappDocs } from "@/lib/platforms/meta/whatsapp/whatsapp-docs";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { rowLimit } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";
import { ProviderRejection, ProviderUnavailable, type FreshCredentials } from "@/lib/platforms/kit/types";

// WhatsApp Business through the Cloud API (graph.facebook.com, Graph errors and throttling as
// every Meta type): a system-user access token and the business phone number's ID, posted by the
// caller. Reads the phone number (quality rating, limits), its business profile and the message
// templates of a WhatsApp Business Account; sends a template message.

const PROVIDER = "Meta";
const TYPE = "whatsapp";

function credentialsOf(credentials: FreshCredentials): { accessToken: string; phoneNumberId: string } {
  if (credentials.kind !== "manual")
    throw new ProviderRejection(PROVIDER, "a WhatsApp connection holds an access token and a phone number ID.");
  return { accessToken: credentials.credentials.access_token, phoneNumberId: credentials.credentials.phone_number_id };
}

const PHONE_FIELDS = [
  "id",
  "display_phone_number",
  "verified_name",
  "quality_rating",
  "code_verification_status",
  "name_status",
  "messaging_limit_tier",
  "platform_type",
  "throughput",
] as const;

/** GET /{phone-number-id}: the business phone number (its ID is the credential). */
async function phoneNumber(type: string, accessToken: string, phoneNumberId: string, fields: readonly string[]) {
  if (!/^\d{1,20}$/.test(phoneNumberId))
    throw new ProviderRejection(
      PROVIDER,
      `phone_number_id must be the numeric ID of the phone number, not "${phoneNumberId.slice(0, 40)}".`,
    );
  // https://developers.facebook.com/documentation/business-messaging/whatsapp/business-phone-numbers/phone-numbers
  // (GET /{phone-number-id}: display_phone_number, verified_name, quality_rating …)
  return graphGet(
    type,
    urlWith(`${GRAPH}/${phoneNumberId}`, { fields: fields.join(",") }),
    "the phone number read",
    accessToken,
  );
}

const text = (v: unknown) => (typeof v === "string" && v ? v : null);

const whatsappType = metaType({
  type: TYPE,
  name: "WhatsApp Business",
  logo: monogramLogo("#25D366", "WA"),
  authMethods: ["manual"],
  credentialFields: ["access_token", "phone_number_id"],
  docs: whatsappDocs,
  // Keyed on the phone number, like a store: posting the same phone_number_id again replaces that
  // connection's token in place, whatever the name (spec §4.2).
  family: "storefront",
  hosts: META_HOSTS,
  async verify(credentials, ctx) {
    const number = await phoneNumber(ctx.type, credentials.access_token, credentials.phone_number_id, [
      "id",
      "display_phone_number",
      "verified_name",
    ]);
    const id = text(number.id) ?? credentials.phone_number_id;
    if (id !== credentials.phone_number_id)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the phone number read with another ID (${id}).`);
    const display = text(number.display_phone_number);
    const verified = text(number.verified_name);
    return {
      rotationKey: `phone:${id}`,
      accountId: id,
      accountName: [verified, display].filter(Boolean).join(" ") || id,
    };
  },
});

const getPhoneNumber = defineRead({
  id: "whatsapp.phone_number.get",
  title: "WhatsApp phone number details",
  consent: "See your WhatsApp business phone number, its quality rating and business profile",
  description:
    "Details of the connection's WhatsApp Business phone number (Cloud API GET /{phone-number-id}): display phone number, verified business name, quality rating (GREEN, YELLOW, RED), " +
    "messaging limit tier (how many customers it may message a day), name status, code verification status, platform and throughput level.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: {},
  output: {
    phone_number_id: z.string().describe("Phone number ID"),
    display_phone_number: z.string().nullable().describe("Phone number"),
    verified_name: z.string().nullable().describe("Display name"),
    quality_rating: z.string().nullable().describe("Quality rating (GREEN, YELLOW or RED)"),
    messaging_limit_tier: z.string().nullable().describe("Messaging limit, e.g. TIER_1K"),
    name_status: z.string().nullable().describe("Display name status"),
    code_verification_status: z.string().nullable().describe("Verification status"),
    platform_type: z.string().nullable().describe("Platform, e.g. CLOUD_API"),
    throughput_level: z.string().nullable().describe("Throughput level"),
  },
  async run({ connection, credentials }) {
    const { accessToken, phoneNumberId } = credentialsOf(credentials);
    const n = await phoneNumber(connection.type, accessToken, phoneNumberId, PHONE_FIELDS);
    return {
      phone_number_id: text(n.id) ?? phoneNumberId,
      display_phone_number: text(n.display_phone_number),
      verified_name: text(n.verified_name),
      quality_rating: text(n.quality_rating),
      messaging_limit_tier: text(n.messaging_limit_tier),
      name_status: text(n.name_status),
      code_verification_status: text(n.code_verification_status),
      platform_type: text(n.platform_type),
      throughput_level: isObject(n.throughput) ? text(n.throughput.level) : null,
    };
  },
});

const getBusinessProfile = defineRead({
  id: "whatsapp.business_profile.get",
  title: "WhatsApp business profile",
  consent: "See your WhatsApp business phone number, its quality rating and business profile",
  description:
    "The WhatsApp business profile customers see for the connection's phone number (Cloud API GET /{phone-number-id}/whatsapp_business_profile): about text, address, description, email, websites, industry (vertical) and profile picture URL.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 600,
  example: {},
  input: {},
  output: {
    phone_number_id: z.string().describe("Phone number ID"),
    about: z.string().nullable().describe("About"),
    address: z.string().nullable().describe("Address"),
    description: z.string().nullable().describe("Description"),
    email: z.string().nullable().describe("Email"),
    websites: z.array(z.string()).describe("Websites"),
    vertical: z.string().nullable().describe("Industry"),
    profile_picture_url: z.string().nullable().describe("Profile picture"),
  },
  async run({ connection, credentials }) {
    const { accessToken, phoneNumberId } = credentialsOf(credentials);
    // https://developers.facebook.com/documentation/business-messaging/whatsapp/business-phone-numbers/business-profiles
    const body = await graphGet(
      connection.type,
      urlWith(`${GRAPH}/${phoneNumberId}/whatsapp_business_profile`, {
        fields: "about,address,description,email,profile_picture_url,websites,vertical",
      }),
      "the business profile read",
      accessToken,
    );
    const p = Array.isArray(body.data) && isObject(body.data[0]) ? body.data[0] : {};
    return {
      phone_number_id: phoneNumberId,
      about: text(p.about),
      address: text(p.address),
      description: text(p.description),
      email: text(p.email),
      websites: Array.isArray(p.websites) ? p.websites.map(String) : [],
      vertical: text(p.vertical),
      profile_picture_url: text(p.profile_picture_url),
    };
  },
});

const listTemplates = defineRead({
  id: "whatsapp.templates.list",
  title: "List WhatsApp message templates",
  consent: "See your WhatsApp message templates",
  description:
    "Lists the message templates of a WhatsApp Business Account (WhatsApp Business Management API GET /{waba-id}/message_templates): name, language, status (APPROVED, PENDING, REJECTED …), category and components (header, body text with {{1}} placeholders, buttons). " +
    "Use it to find the template name and language to send with whatsapp.template.send. Needs the WhatsApp Business Account ID (WhatsApp Manager → Account tools), not the phone number ID.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { waba_id: "102290129340398" },
  input: {
    waba_id: z
      .string()
      .trim()
      .regex(/^\d{1,20}$/, "must be a numeric WhatsApp Business Account ID")
      .describe('The WhatsApp Business Account ID, e.g. "102290129340398".'),
    status: z
      .enum(["APPROVED", "PENDING", "REJECTED", "PAUSED", "DISABLED"])
      .optional()
      .describe("Only templates with this status (default all)."),
    limit: rowLimit(50, 250),
  },
  output: {
    waba_id: z.string().describe("WhatsApp Business Account ID"),
    templates: z
      .array(
        z.object({
          template_id: z.string().nullable().describe("Template ID"),
          name: z.string().nullable().describe("Template name"),
          language: z.string().nullable().describe("Language, e.g. en_US"),
          status: z.string().nullable().describe("Status, e.g. APPROVED"),
          category: z.string().nullable().describe("Category, e.g. MARKETING or UTILITY"),
          components: z
            .array(z.record(z.string(), z.unknown()))
            .describe("Components (header, body, buttons) as Meta describes them"),
        }),
      )
      .describe("Message templates"),
    has_more: z.boolean().describe("More templates than were returned"),
  },
  async run({ connection, credentials }, args) {
    const { accessToken } = credentialsOf(credentials);
    // https://developers.facebook.com/docs/graph-api/reference/whats-app-business-account/message_templates/#Reading
    const body = await graphGet(
      connection.type,
      urlWith(`${GRAPH}/${args.waba_id}/message_templates`, {
        fields: "id,name,language,status,category,components",
        limit: String(args.limit),
        ...(args.status && { status: args.status }),
      }),
      "the message templates call",
      accessToken,
    );
    const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
    return {
      waba_id: args.waba_id,
      templates: data.map((t) => ({
        template_id: text(t.id),
        name: text(t.name),
        language: text(t.language),
        status: text(t.status),
        category: text(t.category),
        components: Array.isArray(t.components) ? t.components.filter(isObject) : [],
      })),
      has_more: isObject(body.paging) && typeof body.paging.next === "string",
    };
  },
});

// https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/ (template
// messages: components of type header, body or button, each with parameters).
const parameter = z
  .object({
    type: z
      .enum(["text", "currency", "date_time", "image", "document", "video", "payload", "location"])
      .describe("The parameter's type; text parameters carry `text`."),
    text: z.string().max(1024).optional(),
  })
  .passthrough();
const component = z.object({
  type: z.enum(["header", "body", "button"]).describe("Which part of the template the parameters fill."),
  sub_type: z.enum(["quick_reply", "url", "copy_code", "flow"]).optional().describe("Buttons only."),
  index: z.union([z.string(), z.number().int()]).optional().describe("Buttons only: the button's position (0-based)."),
  parameters: z.array(parameter).max(100),
});

const sendTemplate = defineWrite({
  id: "whatsapp.template.send",
  additive: true,
  title: "Send a WhatsApp template message",
  consent: "Send WhatsApp template messages from your business number",
  description:
    "Sends one approved WhatsApp message template from the connection's business phone number to a customer (Cloud API POST /{phone-number-id}/messages, type template): a notification, reminder, order update or marketing message. " +
    "Give the template's name and language code, and body_parameters for its {{1}}, {{2}} … placeholders (or full components for header and button parameters). Not repeated on retry: sending twice sends two messages. Returns the WhatsApp message ID (wamid).",
  types: [TYPE],
  credits: 2,
  idempotent: false,
  example: { to: "+15551234567", template_name: "order_update", language_code: "en_US", body_parameters: ["#1042"] },
  input: {
    to: z
      .string()
      .trim()
      .transform((v) => v.replace(/[\s()-]/g, ""))
      .pipe(z.string().regex(/^\+?\d{7,15}$/, "must be a phone number with country code, e.g. +15551234567"))
      .describe("The customer's phone number with country code, e.g. +15551234567."),
    template_name: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, "must be a template name (lowercase letters, digits, underscores)")
      .describe("The approved template's name, e.g. order_update (whatsapp.templates.list lists them)."),
    language_code: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Za-z0-9]{2,4})?$/, "must be a template language code such as en or en_US")
      .describe("The template's language code, e.g. en_US or pt_BR."),
    body_parameters: z
      .array(z.string().min(1).max(1024))
      .max(100)
      .optional()
      .describe("Text for the body's placeholders {{1}}, {{2}} …, in order."),
    components: z
      .array(component)
      .max(20)
      .optional()
      .describe("Full template components (header, body, button parameters) when body_parameters is not enough."),
  },
  summarize(args, _connection, before) {
    const from = isObject(before)
      ? [text(before.verified_name) && `'${String(before.verified_name)}'`, text(before.display_phone_number)]
          .filter(Boolean)
          .join(" ")
      : "";
    const params = args.body_parameters?.length ? ` with ${args.body_parameters.map((p) => `"${p}"`).join(", ")}` : "";
    return `Send the WhatsApp template '${args.template_name}' (${args.language_code})${params} to ${args.to}${from ? ` from ${from}` : ""}`;
  },
  async before({ connection, credentials }: OperationContext) {
    const { accessToken, phoneNumberId } = credentialsOf(credentials);
    const n = await phoneNumber(connection.type, accessToken, phoneNumberId, [
      "id",
      "display_phone_number",
      "verified_name",
      "quality_rating",
    ]);
    return {
      phone_number_id: phoneNumberId,
      display_phone_number: text(n.display_phone_number),
      verified_name: text(n.verified_name),
      quality_rating: text(n.quality_rating),
    };
  },
  output: {
    phone_number_id: z.string().describe("Phone number ID sent from"),
    to: z.string().describe("Recipient"),
    wa_id: z.string().nullable().describe("Recipient's WhatsApp ID"),
    message_id: z.string().describe("Message ID"),
    message_status: z.string().nullable().describe("Message status, e.g. accepted"),
  },
  async run({ connection, credentials }, args) {
    const { accessToken, phoneNumberId } = credentialsOf(credentials);
    const components = [
      ...(args.body_parameters?.length
        ? [{ type: "body", parameters: args.body_parameters.map((t) => ({ type: "text", text: t })) }]
        : []),
      ...(args.components ?? []).filter((c) => !(c.type === "body" && args.body_parameters?.length)),
    ];
    // https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/ and
    // https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages (POST
    // /{phone-number-id}/messages: messaging_product, recipient_type, to, type template)
    const body = await graphPostJson(
      connection.type,
      `${GRAPH}/${phoneNumberId}/messages`,
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: args.to.replace(/^\+/, ""),
        type: "template",
        template: {
          name: args.template_name,
          language: { code: args.language_code },
          ...(components.length && { components }),
        },
      },
      "the messages call",
      accessToken,
    );
    const message = Array.isArray(body.messages) && isObject(body.messages[0]) ? body.messages[0] : null;
    if (!message || typeof message.id !== "string")
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the messages call without a message id.`);
    const contact = Array.isArray(body.contacts) && isObject(body.contacts[0]) ? body.contacts[0] : {};
    return {
      phone_number_id: phoneNumberId,
      to: args.to,
      wa_id: text(contact.wa_id),
      message_id: message.id,
      message_status: text(message.message_status),
    };
  },
});

export const whatsappProduct = {
  types: [whatsappType],
  operations: [getPhoneNumber, getBusinessProfile, listTemplates, sendTemplate] as Operation[],
};
