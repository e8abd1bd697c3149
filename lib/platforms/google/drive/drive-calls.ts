import "server-only";
import { z } from "zod";
import { stringOr, type ApiCheck } from "@/lib/platforms/google/google-provider";
import { count, text, workspaceApiCall } from "@/lib/platforms/google/workspace-common";

// Drive API v3 calls the Drive and Slides types share: the account behind a token (about.get),
// a file's metadata and copying a file.

export const DRIVE_API = "https://www.googleapis.com/drive/v3";
export const DRIVE_READONLY_SCOPE = "https://www.googleapis.com/auth/drive.readonly";
export const DRIVE_FILE_SCOPE = "https://www.googleapis.com/auth/drive.file";
export const FOLDER_MIME = "application/vnd.google-apps.folder";

/** The file fields every answer asks for (Drive v3 returns only id, name and mimeType unless told). */
export const FILE_FIELDS =
  "id,name,mimeType,description,parents,webViewLink,createdTime,modifiedTime,size,driveId,trashed,owners(displayName,emailAddress)";

/** fileOf's answer: a Drive file or folder. */
export const driveFileShape = {
  id: z.string().nullable().describe("File ID"),
  name: z.string().nullable().describe("File name"),
  mime_type: z.string().nullable().describe("File type (MIME type)"),
  description: z.string().nullable().describe("Description"),
  url: z.string().nullable().describe("File link"),
  parents: z.array(z.string()).describe("Parent folder IDs"),
  created_time: z.string().nullable().describe("Created at"),
  modified_time: z.string().nullable().describe("Last modified at"),
  size_bytes: z.number().nullable().describe("Size in bytes (none for Google Docs files and folders)"),
  drive_id: z.string().nullable().describe("Shared drive ID (none in My Drive)"),
  trashed: z.boolean().describe("In the trash"),
  owners: z.array(z.string()).describe("Owners' email addresses"),
};

/** A Drive File resource in our words. */
export function fileOf(f: Record<string, unknown>) {
  return {
    id: text(f.id),
    name: text(f.name),
    mime_type: text(f.mimeType),
    description: text(f.description),
    url: text(f.webViewLink),
    parents: Array.isArray(f.parents) ? f.parents.filter((p) => typeof p === "string") : [],
    created_time: text(f.createdTime),
    modified_time: text(f.modifiedTime),
    size_bytes: count(f.size),
    drive_id: text(f.driveId),
    trashed: f.trashed === true,
    owners: (Array.isArray(f.owners) ? f.owners : [])
      .map((o) => (o && typeof o === "object" ? (o as Record<string, unknown>).emailAddress : null))
      .filter((e): e is string => typeof e === "string"),
  };
}

/**
 * The Google account behind a token: Drive's about.get (any Drive scope may call it).
 * https://developers.google.com/workspace/drive/api/reference/rest/v3/about/get
 */
export const checkDrive: ApiCheck = async (type, accessToken) => {
  const body = await workspaceApiCall(
    type,
    `${DRIVE_API}/about?fields=${encodeURIComponent("user(displayName,emailAddress,permissionId)")}`,
    accessToken,
    "the Drive about.get call",
  );
  const user = body.user && typeof body.user === "object" ? (body.user as Record<string, unknown>) : {};
  return {
    accountId: stringOr(user.permissionId) ?? stringOr(user.emailAddress),
    accountName: stringOr(user.emailAddress) ?? stringOr(user.displayName),
  };
};

/** files.get: a file's metadata (shared drives included). */
export async function driveFile(type: string, accessToken: string, fileId: string) {
  // https://developers.google.com/workspace/drive/api/reference/rest/v3/files/get
  const body = await workspaceApiCall(
    type,
    `${DRIVE_API}/files/${fileId}?${new URLSearchParams({ fields: FILE_FIELDS, supportsAllDrives: "true" })}`,
    accessToken,
    "the Drive files.get call",
  );
  return fileOf(body);
}

/** files.copy: a copy of a file (not a folder), named and placed as given; the copy is a file Patchbay created. */
export async function copyDriveFile(
  type: string,
  accessToken: string,
  fileId: string,
  { name, parentId }: { name?: string; parentId?: string },
) {
  // https://developers.google.com/workspace/drive/api/reference/rest/v3/files/copy
  const body = await workspaceApiCall(
    type,
    `${DRIVE_API}/files/${fileId}/copy?${new URLSearchParams({ fields: FILE_FIELDS, supportsAllDrives: "true" })}`,
    accessToken,
    "the Drive files.copy call",
    { body: { ...(name && { name }), ...(parentId && { parents: [parentId] }) } },
  );
  return fileOf(body);
}
