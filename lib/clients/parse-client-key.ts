import { badRequest } from "@/lib/errors/api-error";
import { externalIdOfKey } from "@/lib/clients/client-key";

/** The external_id a route's `{client}` segment names (null: No client); 400 when it cannot be one. */
export function parseClientKey(key: string): string | null {
  // An external_id is at most 255 characters; its segment may carry one "~" more.
  if (!key || key.length > 256) throw badRequest("client: must be an external_id of 1 to 255 characters, or ~none");
  const externalId = externalIdOfKey(key);
  if (externalId !== null && (externalId.length < 1 || externalId.length > 255))
    throw badRequest("client: must be an external_id of 1 to 255 characters, or ~none");
  return externalId;
}
