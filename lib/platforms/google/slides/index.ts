import "server-only";
import { z } from "zod";
import { googleAccessToken, googleType, listOf } from "@/lib/platforms/google/google-provider";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import {
  PROVIDER,
  driveFileId,
  objectOr,
  quoted,
  text,
  workspaceApiCall,
} from "@/lib/platforms/google/workspace-common";
import {
  DRIVE_API,
  DRIVE_FILE_SCOPE,
  DRIVE_READONLY_SCOPE,
  checkDrive,
  copyDriveFile,
} from "@/lib/platforms/google/drive/drive-calls";
import { slidesDocs } from "@/lib/platforms/google/slides/slides-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { OperationContext } from "@/lib/platforms/kit/operation-types";
import { CredentialRejected, ProviderRejection } from "@/lib/platforms/kit/types";

// Google Slides (Slides API v1, plus Drive's files.copy): a presentation's slides and the
// {{placeholders}} in their text, and a new deck made from a template: copy it, then replace its
// placeholders (presentations.batchUpdate with replaceAllText). drive.readonly reads any deck the
// account can open; drive.file creates the copy and lets Patchbay edit that copy only.

const TYPE = "google_slides";
const SLIDES_API = "https://slides.googleapis.com/v1";
const PRESENTATION_MIME = "application/vnd.google-apps.presentation";

const slidesType = googleType({
  type: TYPE,
  name: "Google Slides",
  logo: monogramLogo("#F4B400", "Sl", "#202124"),
  scopes: [
    { name: DRIVE_READONLY_SCOPE, allows: "See and download all your Google Drive files" },
    {
      name: DRIVE_FILE_SCOPE,
      allows: "See, edit, create, and delete only the specific Google Drive files you use with this app",
      changes: true,
    },
  ],
  credentialFields: ["client_id", "client_secret", "refresh_token"],
  docs: slidesDocs,
  hosts: ["slides.googleapis.com"],
  check: checkDrive,
});

const presentationId = (what: string) =>
  driveFileId("Slides presentation").describe(
    `The ${what}'s ID (the long part after /d/ in its URL) or its whole URL.`,
  );

/** {{name}} as written in a deck; the name is what a replacement is keyed by. */
const PLACEHOLDER = /\{\{\s*([^{}]{1,100}?)\s*\}\}/g;

/** The text of one page element: a shape's text, a table's cells, a group's children. */
function elementText(element: Record<string, unknown>): string[] {
  const runs = (t: unknown) =>
    listOf(objectOr(t), "textElements", "presentations.get")
      .map((e) => text(objectOr(e.textRun).content) ?? "")
      .join("");
  const out: string[] = [];
  const shape = objectOr(element.shape);
  if (shape.text) out.push(runs(shape.text));
  for (const row of listOf(objectOr(element.table), "tableRows", "presentations.get"))
    for (const c of listOf(row, "tableCells", "presentations.get")) if (c.text) out.push(runs(c.text));
  for (const child of listOf(objectOr(element.elementGroup), "children", "presentations.get"))
    out.push(...elementText(child));
  return out.map((t) => t.trim()).filter(Boolean);
}

/** presentations.get: the deck's title, its slides' text and the placeholders it contains. */
async function presentationOf(ctx: OperationContext, id: string) {
  const what = "the presentations.get call";
  // https://developers.google.com/workspace/slides/api/reference/rest/v1/presentations/get
  const body = await workspaceApiCall(
    ctx.connection.type,
    `${SLIDES_API}/presentations/${id}`,
    await googleAccessToken(ctx.connection.type, ctx.credentials),
    what,
  );
  const placeholders = new Map<string, { placeholder: string; occurrences: number; slides: number[] }>();
  const slides = listOf(body, "slides", what).map((slide, index) => {
    const texts = listOf(slide, "pageElements", what).flatMap(elementText);
    for (const t of texts)
      for (const m of t.matchAll(PLACEHOLDER)) {
        const name = m[1].trim();
        const entry = placeholders.get(name) ?? { placeholder: `{{${name}}}`, occurrences: 0, slides: [] };
        entry.occurrences++;
        if (!entry.slides.includes(index + 1)) entry.slides.push(index + 1);
        placeholders.set(name, entry);
      }
    return { slide_id: text(slide.objectId), number: index + 1, text: texts };
  });
  const presentation = text(body.presentationId) ?? id;
  return {
    presentation_id: presentation,
    title: text(body.title),
    url: `https://docs.google.com/presentation/d/${presentation}/edit`,
    slide_count: slides.length,
    placeholders: [...placeholders.entries()].map(([name, p]) => ({ name, ...p })),
    slides,
  };
}

const getPresentation = defineRead({
  id: "google_slides.presentation.get",
  title: "Read a Google Slides presentation and its placeholders",
  consent: "See your Google Slides presentations",
  description:
    "Reads a Google Slides presentation (Slides API presentations.get): its title, URL, and every slide's text in order, plus the {{placeholders}} its text contains (e.g. {{client_name}}) with how often and on which slides each appears. " +
    "Use it on a template deck before google_slides.presentation.create_from_template to learn which placeholder names to fill.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { presentation_id: "1EAYk18WDjIG-zp_0vLm3CsfQh_i8eXc67Jo2O9C6Vuc" },
  input: { presentation_id: presentationId("presentation") },
  output: {
    presentation_id: z.string().describe("Presentation ID"),
    title: z.string().nullable().describe("Presentation title"),
    url: z.string().describe("Presentation link"),
    slide_count: z.number().describe("Slides"),
    placeholders: z
      .array(
        z.object({
          name: z.string().describe("Placeholder name, e.g. client_name"),
          placeholder: z.string().describe("Placeholder as written, e.g. {{client_name}}"),
          occurrences: z.number().describe("Times it appears"),
          slides: z.array(z.number()).describe("Slide numbers it appears on"),
        }),
      )
      .describe("{{Placeholders}} in the text"),
    slides: z
      .array(
        z.object({
          slide_id: z.string().nullable().describe("Slide ID"),
          number: z.number().describe("Slide number"),
          text: z.array(z.string()).describe("Texts on the slide"),
        }),
      )
      .describe("Slides, in order"),
  },
  run: (ctx, args) => presentationOf(ctx, args.presentation_id),
});

const searchPresentations = defineRead({
  id: "google_slides.presentations.search",
  title: "Find Google Slides presentations",
  consent: "See your Google Slides presentations",
  description:
    "Finds the Google Slides presentations (decks) the account can open, newest first, optionally those whose name contains some words (Drive API files.list limited to presentations): find a deck or template by name. " +
    "Returns each presentation's id, name, URL and modified time; use an id with google_slides.presentation.get or as the template of google_slides.presentation.create_from_template.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { name_contains: "template" },
  input: {
    name_contains: z.string().trim().min(1).max(200).optional().describe("Words the presentation's name contains."),
    page_size: z.number().int().min(1).max(100).default(25).describe("How many to return (1-100, default 25)."),
  },
  output: {
    presentations: z
      .array(
        z.object({
          presentation_id: z.string().nullable().describe("Presentation ID"),
          name: z.string().nullable().describe("Presentation name"),
          url: z.string().nullable().describe("Presentation link"),
          modified_time: z.string().nullable().describe("Last modified at"),
        }),
      )
      .describe("Presentations, newest first"),
  },
  async run(ctx, args) {
    const q = [
      `mimeType = '${PRESENTATION_MIME}'`,
      "trashed = false",
      ...(args.name_contains
        ? [`name contains '${args.name_contains.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`]
        : []),
    ].join(" and ");
    const what = "the Drive files.list call";
    // https://developers.google.com/workspace/drive/api/reference/rest/v3/files/list
    const body = await workspaceApiCall(
      ctx.connection.type,
      `${DRIVE_API}/files?${new URLSearchParams({
        q,
        fields: "nextPageToken,files(id,name,modifiedTime,webViewLink)",
        pageSize: String(args.page_size),
        orderBy: "modifiedTime desc",
        corpora: "allDrives",
        supportsAllDrives: "true",
        includeItemsFromAllDrives: "true",
      })}`,
      await googleAccessToken(ctx.connection.type, ctx.credentials),
      what,
    );
    return {
      presentations: listOf(body, "files", what).map((f) => ({
        presentation_id: text(f.id),
        name: text(f.name),
        url: text(f.webViewLink),
        modified_time: text(f.modifiedTime),
      })),
    };
  },
});

/** "client_name" or "{{client_name}}" → "client_name". */
const placeholderName = z
  .string()
  .transform((k) =>
    k
      .trim()
      .replace(/^\{\{\s*/, "")
      .replace(/\s*\}\}$/, ""),
  )
  .pipe(z.string().regex(/^[^{}]{1,100}$/, "must be a placeholder name such as client_name (without or with {{ }})"));

const replacementsOf = (input: Record<string, string>) =>
  Object.entries(input).map(([key, value]) => ({ name: placeholderName.parse(key), value }));

const fromTemplate = defineWrite({
  id: "google_slides.presentation.create_from_template",
  additive: true,
  idempotent: false,
  title: "Create a Google Slides presentation from a template",
  consent: "Create presentations from your templates and fill in their placeholders",
  description:
    "Makes a new Google Slides presentation from a template deck: copies the template (Drive files.copy) under a new title, then replaces every {{placeholder}} in the copy's text with the given values (Slides presentations.batchUpdate replaceAllText). " +
    "Use it to generate, create, fill in or personalise a deck, proposal, report or quote from a template; the template itself is not changed. " +
    'replacements maps placeholder names to text, e.g. {"client_name": "Acme"} replaces {{client_name}}. Returns the new presentation\'s id and URL and how many times each placeholder was replaced. ' +
    "Find a template's placeholders with google_slides.presentation.get.",
  types: [TYPE],
  credits: 2,
  example: {
    template_id: "1EAYk18WDjIG-zp_0vLm3CsfQh_i8eXc67Jo2O9C6Vuc",
    title: "Acme — Q4 review",
    replacements: { client_name: "Acme", quarter: "Q4 2026" },
  },
  input: {
    template_id: presentationId("template presentation"),
    title: z.string().trim().min(1).max(255).describe("The new presentation's title (its file name in Drive)."),
    replacements: z
      .record(z.string().max(104), z.string().max(10_000))
      .refine((r) => Object.keys(r).length >= 1 && Object.keys(r).length <= 200, "must name 1 to 200 placeholders")
      .refine(
        (r) => Object.keys(r).every((k) => placeholderName.safeParse(k).success),
        "each key must be a placeholder name such as client_name (without or with {{ }})",
      )
      .describe('Placeholder name → replacement text, e.g. {"client_name": "Acme", "quarter": "Q4 2026"}.'),
    match_case: z
      .boolean()
      .default(true)
      .describe("Match placeholder names case-sensitively (default true): {{Client}} is not {{client}}."),
    folder_id: driveFileId("Drive folder")
      .optional()
      .describe("The Drive folder to put the new presentation in; default: the template's folder."),
  },
  summarize(args, _connection, before) {
    const state = isObject(before) ? before : {};
    const known = Array.isArray(state.placeholders) ? (state.placeholders as unknown[]) : null;
    const pairs = replacementsOf(args.replacements)
      .map((r) => {
        const absent = known && !known.includes(`{{${r.name}}}`) ? " (not in the template)" : "";
        return `{{${r.name}}} → '${r.value.length > 60 ? `${r.value.slice(0, 59)}…` : r.value}'${absent}`;
      })
      .join(", ");
    return `Copy Google Slides template${quoted(state.title)} (${args.template_id}) as '${args.title}' and replace ${pairs}`;
  },
  before: async (ctx, args) => {
    const template = await presentationOf(ctx, args.template_id);
    return {
      presentation_id: template.presentation_id,
      title: template.title,
      slide_count: template.slide_count,
      placeholders: template.placeholders.map((p) => p.placeholder),
    };
  },
  output: {
    presentation_id: z.string().describe("New presentation ID"),
    url: z.string().describe("New presentation link"),
    title: z.string().describe("New presentation title"),
    template_id: z.string().describe("Template presentation ID"),
    replacements: z
      .array(
        z.object({
          placeholder: z.string().describe("Placeholder, e.g. {{client_name}}"),
          occurrences_changed: z.number().describe("Times replaced"),
        }),
      )
      .describe("Placeholders replaced"),
  },
  async run(ctx, args) {
    const replacements = replacementsOf(args.replacements);
    const accessToken = await googleAccessToken(ctx.connection.type, ctx.credentials);
    const copy = await copyDriveFile(ctx.connection.type, accessToken, args.template_id, {
      name: args.title,
      parentId: args.folder_id,
    });
    if (!copy.id) throw new ProviderRejection(PROVIDER, "Drive answered the files.copy call without the copy's id.");
    const url = `https://docs.google.com/presentation/d/${copy.id}/edit`;
    let body: Record<string, unknown>;
    try {
      // https://developers.google.com/workspace/slides/api/reference/rest/v1/presentations/batchUpdate (ReplaceAllTextRequest: https://developers.google.com/workspace/slides/api/reference/rest/v1/presentations/request#ReplaceAllTextRequest)
      body = await workspaceApiCall(
        ctx.connection.type,
        `${SLIDES_API}/presentations/${copy.id}:batchUpdate`,
        accessToken,
        "the presentations.batchUpdate call",
        {
          body: {
            requests: replacements.map((r) => ({
              replaceAllText: {
                containsText: { text: `{{${r.name}}}`, matchCase: args.match_case },
                replaceText: r.value,
              },
            })),
          },
        },
      );
    } catch (e) {
      if (e instanceof ProviderRejection && !(e instanceof CredentialRejected))
        throw new ProviderRejection(
          PROVIDER,
          `the template was copied to ${copy.id} (${url}), but replacing its placeholders failed: ${e.reason}`,
        );
      throw e;
    }
    const replies = Array.isArray(body.replies) ? body.replies : [];
    return {
      presentation_id: copy.id,
      url,
      title: copy.name ?? args.title,
      template_id: args.template_id,
      replacements: replacements.map((r, i) => {
        const changed = objectOr(objectOr(replies[i]).replaceAllText).occurrencesChanged;
        return { placeholder: `{{${r.name}}}`, occurrences_changed: typeof changed === "number" ? changed : 0 };
      }),
    };
  },
});

export const slides: GoogleProduct = {
  types: [slidesType],
  operations: [searchPresentations, getPresentation, fromTemplate],
};
