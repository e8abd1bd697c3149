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
  FILE_FIELDS,
  FOLDER_MIME,
  checkDrive,
  copyDriveFile,
  driveFile,
  driveFileShape,
  fileOf,
} from "@/lib/platforms/google/drive/drive-calls";
import { driveDocs } from "@/lib/platforms/google/drive/drive-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { OperationContext } from "@/lib/platforms/kit/operation-types";
import {
  providerFetch,
  providerReason,
  rateLimitReason,
  rejection,
  type ProviderResponse,
} from "@/lib/platforms/kit/provider-fetch";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";

// Google Drive (Drive API v3): search files, a file's metadata, a Google Doc / Sheet / Slides
// exported as text, creating a folder and copying a file. drive.readonly reads every file the
// account can see; drive.file lets Patchbay create files (folders, copies) and change only those.

const TYPE = "google_drive";

const driveType = googleType({
  type: TYPE,
  name: "Google Drive",
  logo: monogramLogo("#1FA463", "Dr"),
  scopes: [
    { name: DRIVE_READONLY_SCOPE, allows: "See and download all your Google Drive files" },
    {
      name: DRIVE_FILE_SCOPE,
      allows: "See, edit, create, and delete only the specific Google Drive files you use with this app",
      changes: true,
    },
  ],
  credentialFields: ["client_id", "client_secret", "refresh_token"],
  docs: driveDocs,
  check: checkDrive,
});

const KINDS = {
  folder: FOLDER_MIME,
  document: "application/vnd.google-apps.document",
  spreadsheet: "application/vnd.google-apps.spreadsheet",
  presentation: "application/vnd.google-apps.presentation",
  form: "application/vnd.google-apps.form",
  pdf: "application/pdf",
} as const;

/** A value inside a Drive query string: backslashes and single quotes escaped, as the search guide asks. */
const literal = (v: string) => `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

const fileId = (what: string) => driveFileId(what);
const token = ({ connection, credentials }: OperationContext) => googleAccessToken(connection.type, credentials);

const searchFiles = defineRead({
  id: "google_drive.files.search",
  title: "Search Google Drive files",
  consent: "See and download your Google Drive files",
  description:
    "Searches and lists the files and folders in Google Drive that the account can see (Drive API files.list), shared drives included: find a file, document, spreadsheet, presentation, PDF or folder by name, by words in its content, by kind or inside a folder. " +
    "Returns each file's id, name, MIME type, URL, parent folders, owners, size and created / modified times, newest first unless order_by says otherwise, plus next_page_token when there are more. " +
    "The filters are combined with and; `query` takes Drive's own search syntax (e.g. modifiedTime > '2026-01-01T00:00:00' and 'me' in owners).",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { name_contains: "report", kind: "spreadsheet", page_size: 10 },
  input: {
    name_contains: z.string().trim().min(1).max(200).optional().describe("Words the file's name contains."),
    full_text: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe("Words found in the file's name, description or content."),
    kind: z
      .enum(["folder", "document", "spreadsheet", "presentation", "form", "pdf"])
      .optional()
      .describe("Only files of this kind (a Google Docs document, Sheets spreadsheet, Slides presentation, folder …)."),
    folder_id: fileId("Drive folder").optional().describe("Only files directly inside this folder (its ID or URL)."),
    query: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .describe("Extra conditions in Drive's query syntax, e.g. modifiedTime > '2026-01-01T00:00:00'."),
    include_trashed: z.boolean().default(false).describe("Include files in the trash (default false)."),
    order_by: z
      .string()
      .regex(
        /^(createdTime|folder|modifiedByMeTime|modifiedTime|name|name_natural|quotaBytesUsed|recency|sharedWithMeTime|starred|viewedByMeTime)( desc)?(,(createdTime|folder|modifiedByMeTime|modifiedTime|name|name_natural|quotaBytesUsed|recency|sharedWithMeTime|starred|viewedByMeTime)( desc)?)*$/,
        "must be Drive sort keys such as 'modifiedTime desc' or 'folder,name'",
      )
      .default("modifiedTime desc")
      .describe("Sort order, e.g. 'modifiedTime desc' (default), 'name', 'createdTime desc'."),
    page_size: z.number().int().min(1).max(100).default(25).describe("How many files to return (1-100, default 25)."),
    page_token: z.string().max(2000).optional().describe("next_page_token of the previous answer, for the next page."),
  },
  output: {
    query: z.string().nullable().describe("Drive search query sent"),
    files: z.array(z.object(driveFileShape)).describe("Files found"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
    incomplete_search: z.boolean().describe("Google did not search every drive"),
  },
  async run(ctx, args) {
    const conditions = [
      ...(args.include_trashed ? [] : ["trashed = false"]),
      ...(args.name_contains ? [`name contains ${literal(args.name_contains)}`] : []),
      ...(args.full_text ? [`fullText contains ${literal(args.full_text)}`] : []),
      ...(args.kind ? [`mimeType = ${literal(KINDS[args.kind])}`] : []),
      ...(args.folder_id ? [`${literal(args.folder_id)} in parents`] : []),
      ...(args.query ? [`(${args.query})`] : []),
    ];
    const params = new URLSearchParams({
      ...(conditions.length && { q: conditions.join(" and ") }),
      fields: `nextPageToken,incompleteSearch,files(${FILE_FIELDS})`,
      pageSize: String(args.page_size),
      // fullText searches are sorted by relevance; Drive refuses orderBy with them.
      ...(!args.full_text && { orderBy: args.order_by }),
      corpora: "allDrives",
      supportsAllDrives: "true",
      includeItemsFromAllDrives: "true",
      ...(args.page_token && { pageToken: args.page_token }),
    });
    const what = "the Drive files.list call";
    // https://developers.google.com/workspace/drive/api/reference/rest/v3/files/list (q: https://developers.google.com/workspace/drive/api/guides/search-files)
    const body = await workspaceApiCall(ctx.connection.type, `${DRIVE_API}/files?${params}`, await token(ctx), what);
    return {
      query: params.get("q"),
      files: listOf(body, "files", what).map(fileOf),
      next_page_token: text(body.nextPageToken),
      incomplete_search: body.incompleteSearch === true,
    };
  },
});

const getFile = defineRead({
  id: "google_drive.file.get",
  title: "Get a Google Drive file's details",
  consent: "See and download your Google Drive files",
  description:
    "Reads one Google Drive file's or folder's metadata (Drive API files.get): name, MIME type, URL, description, parent folders, owners, size, created and modified times, whether it is in the trash. " +
    "file_id is the ID from google_drive.files.search or the file's URL.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { file_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms" },
  input: { file_id: fileId("Drive file").describe("The file's ID or URL.") },
  output: driveFileShape,
  run: async (ctx, args) => driveFile(ctx.connection.type, await token(ctx), args.file_id),
});

/** At most this many characters of an export are returned (Google exports up to 10 MB). */
const EXPORT_MAX_CHARS = 200_000;

/** Google's reason from an error body ({error: {code, message, status?, errors}}). */
function reasonOf(res: ProviderResponse): string {
  const error = objectOr(objectOr(res.body).error);
  if (typeof error.message !== "string") return providerReason(res);
  return error.status ? `${String(error.status)}: ${error.message}` : error.message;
}

const exportFile = defineRead({
  id: "google_drive.file.export",
  title: "Read a Google Doc, Sheet or Slides file as text",
  consent: "See and download your Google Drive files",
  description:
    "Exports a Google Docs document, Sheets spreadsheet (its first tab) or Slides presentation as text (Drive API files.export) so its content can be read: read a doc, get the text of a document, download a sheet as CSV. " +
    "mime_type text/plain (default) or text/markdown for documents, text/csv for spreadsheets, text/plain for presentations. Returns the text (cut after 200,000 characters, with truncated true). " +
    "Only Google Docs editor files can be exported; other files (PDFs, images) cannot.",
  types: [TYPE],
  credits: 2,
  cacheTtlSeconds: 60,
  example: { file_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", mime_type: "text/plain" },
  input: {
    file_id: fileId("Drive file").describe("The Google Docs, Sheets or Slides file's ID or URL."),
    mime_type: z
      .enum(["text/plain", "text/markdown", "text/csv", "text/html"])
      .default("text/plain")
      .describe(
        "The text format: text/plain (default), text/markdown (documents), text/csv (spreadsheets), text/html.",
      ),
  },
  output: {
    file_id: z.string().describe("File ID"),
    mime_type: z.string().describe("Text format, e.g. text/plain"),
    characters: z.number().describe("Length of the whole export (characters)"),
    truncated: z.boolean().describe("Cut after 200,000 characters"),
    text: z.string().describe("File content as text"),
  },
  async run(ctx, args) {
    // https://developers.google.com/workspace/drive/api/reference/rest/v3/files/export
    const res = await providerFetch(
      PROVIDER,
      driveType,
      `${DRIVE_API}/files/${args.file_id}/export?${new URLSearchParams({ mimeType: args.mime_type })}`,
      { headers: { authorization: `Bearer ${await token(ctx)}`, accept: `${args.mime_type}, application/json` } },
    );
    if (res.status === 429) throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, reasonOf(res)));
    if (res.status >= 400 && res.status < 500) throw rejection(PROVIDER, res, reasonOf(res));
    if (res.status !== 200)
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER} answered the Drive files.export call with ${reasonOf(res)}.`,
      );
    return {
      file_id: args.file_id,
      mime_type: args.mime_type,
      characters: res.text.length,
      truncated: res.text.length > EXPORT_MAX_CHARS,
      text: res.text.slice(0, EXPORT_MAX_CHARS),
    };
  },
});

/** Where a new file goes, for the approver: the parent folder's name, or the top of My Drive. */
const placeOf = (before: unknown, parentId: string | undefined) => {
  const parent = isObject(before) && isObject(before.parent) ? before.parent : null;
  return parentId ? `in Google Drive folder${quoted(parent?.name)} (${parentId})` : "at the top of My Drive";
};

const createFolder = defineWrite({
  id: "google_drive.folder.create",
  additive: true,
  idempotent: false,
  title: "Create a folder in Google Drive",
  consent: "Create folders and copies of files in your Google Drive",
  description:
    "Creates a new folder in Google Drive (Drive API files.create with the folder MIME type): make, add or create a folder, inside another folder (parent_id) or at the top of My Drive. " +
    "Drive allows several folders with the same name; this always creates a new one. Returns the new folder's id, name and URL.",
  types: [TYPE],
  credits: 1,
  example: { name: "Q4 reports", parent_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms" },
  input: {
    name: z.string().trim().min(1).max(255).describe("The new folder's name."),
    parent_id: fileId("Drive folder")
      .optional()
      .describe("The folder to create it in (its ID or URL); default: the top of My Drive."),
    description: z.string().max(5000).optional().describe("A description shown in the folder's details."),
  },
  summarize: (args, _connection, before) => `Create the folder '${args.name}' ${placeOf(before, args.parent_id)}`,
  before: async (ctx, args) =>
    args.parent_id
      ? { parent: await driveFile(ctx.connection.type, await token(ctx), args.parent_id) }
      : { parent: null },
  output: driveFileShape,
  async run(ctx, args) {
    // https://developers.google.com/workspace/drive/api/reference/rest/v3/files/create (folders: https://developers.google.com/workspace/drive/api/guides/folder)
    const body = await workspaceApiCall(
      ctx.connection.type,
      `${DRIVE_API}/files?${new URLSearchParams({ fields: FILE_FIELDS, supportsAllDrives: "true" })}`,
      await token(ctx),
      "the Drive files.create call",
      {
        body: {
          name: args.name,
          mimeType: FOLDER_MIME,
          ...(args.parent_id && { parents: [args.parent_id] }),
          ...(args.description && { description: args.description }),
        },
      },
    );
    return fileOf(body);
  },
});

const copyFile = defineWrite({
  id: "google_drive.file.copy",
  additive: true,
  idempotent: false,
  title: "Copy a file in Google Drive",
  consent: "Create folders and copies of files in your Google Drive",
  description:
    "Makes a copy of a Google Drive file (Drive API files.copy): copy or duplicate a document, spreadsheet, presentation or any file, optionally with a new name and into another folder. Folders cannot be copied. " +
    "Returns the copy's id, name and URL.",
  types: [TYPE],
  credits: 1,
  example: { file_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", name: "Budget 2027" },
  input: {
    file_id: fileId("Drive file").describe("The file to copy (its ID or URL)."),
    name: z.string().trim().min(1).max(255).optional().describe("The copy's name; default: Google's 'Copy of …'."),
    parent_id: fileId("Drive folder")
      .optional()
      .describe("The folder to put the copy in (its ID or URL); default: the original's folder."),
  },
  summarize(args, _connection, before) {
    const source = isObject(before) && isObject(before.source) ? before.source : {};
    const as = args.name ? ` as '${args.name}'` : "";
    const into = args.parent_id ? ` ${placeOf(before, args.parent_id)}` : "";
    return `Copy Google Drive file${quoted(source.name)} (${args.file_id})${as}${into}`;
  },
  before: async (ctx, args) => {
    const accessToken = await token(ctx);
    return {
      source: await driveFile(ctx.connection.type, accessToken, args.file_id),
      parent: args.parent_id ? await driveFile(ctx.connection.type, accessToken, args.parent_id) : null,
    };
  },
  output: driveFileShape,
  run: async (ctx, args) =>
    copyDriveFile(ctx.connection.type, await token(ctx), args.file_id, { name: args.name, parentId: args.parent_id }),
});

export const drive: GoogleProduct = {
  types: [driveType],
  operations: [searchFiles, getFile, exportFile, createFolder, copyFile],
};
