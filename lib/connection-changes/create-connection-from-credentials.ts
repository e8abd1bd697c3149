import "server-only";
import { ApiError, badRequest, forbidden } from "@/lib/errors/api-error";
import { findConnectionType } from "@/lib/platforms/registry";
import {
  ProviderRejection,
  ProviderUnavailable,
  UnsendableCredential,
  type ConnectionTypeDefinition,
} from "@/lib/platforms/kit/types";
import { connectionToJson } from "@/lib/connections/connection-to-json";
import { saveConnection } from "@/lib/connection-changes/save-connection";
import type { CreateConnectionBody } from "@/lib/schemas/connections";
import type { Principal } from "@/lib/api-keys/authenticate-api-key";

/**
 * POST /v1/connections (spec §4.2): checks the type and the exact credential fields before
 * any provider call, verifies the credentials with the provider, and only then stores them,
 * encrypted, replacing the connection the rotation rules point at.
 */
export async function createConnectionFromCredentials(principal: Principal, body: CreateConnectionBody) {
  const def = manualTypeOrThrow(body.connection_type);
  checkCredentialFields(def, body.credentials);
  if (def.authMethods.includes("oauth") && principal.team.plan !== "team") {
    throw forbidden(
      `${def.type} is white-label capable: creating it from your own app's credentials needs the Team plan (this team is on ${principal.team.plan}).`,
    );
  }
  const account = await verifyOrThrow(def, body);
  const { row } = await saveConnection({
    teamId: principal.team.id,
    type: def.type,
    typeName: def.name,
    displayName: body.name,
    ownerUserId: body.is_private === undefined ? undefined : body.is_private ? principal.user.id : null,
    actingUserId: principal.user.id,
    credentials: body.credentials,
    rotationKey: account.rotationKey,
    accountId: account.accountId ?? null,
    via: { kind: "credentials" },
  });
  return connectionToJson(row, "s");
}

function manualTypeOrThrow(type: string): ConnectionTypeDefinition {
  const def = findConnectionType(type);
  if (!def)
    throw badRequest(`Unknown connection_type ${JSON.stringify(type)}; GET /v1/connections/types lists the types.`);
  if (!def.authMethods.includes("manual")) {
    throw badRequest(
      `${def.type} cannot be created from credentials: it connects only through OAuth. Create an auth link instead (POST /v1/connections/auth-link).`,
    );
  }
  return def;
}

function checkCredentialFields(def: ConnectionTypeDefinition, credentials: Record<string, string>) {
  const expected = def.credentialFields ?? [];
  const problems: string[] = [];
  const unknown = Object.keys(credentials).filter((k) => !expected.includes(k));
  const missing = expected.filter((k) => !(k in credentials));
  const empty = expected.filter((k) => k in credentials && credentials[k].trim() === "");
  if (missing.length) problems.push(`missing ${missing.map((k) => `credentials.${k}`).join(", ")}`);
  if (unknown.length) problems.push(`unrecognised ${unknown.map((k) => `credentials.${k}`).join(", ")}`);
  if (empty.length) problems.push(`empty ${empty.map((k) => `credentials.${k}`).join(", ")}`);
  if (problems.length) throw badRequest(`${problems.join("; ")}. ${def.type} takes exactly: ${expected.join(", ")}.`);
}

async function verifyOrThrow(def: ConnectionTypeDefinition, body: CreateConnectionBody) {
  if (!def.verify)
    throw new ApiError(501, `${def.type} has no credential verification, so it cannot be created from credentials.`);
  try {
    return await def.verify(body.credentials, { type: def.type, name: body.name });
  } catch (e) {
    if (e instanceof ProviderRejection) throw badRequest(`${e.provider} rejected the credentials: ${e.reason}`);
    if (e instanceof ProviderUnavailable) throw new ApiError(502, e.reason);
    if (e instanceof UnsendableCredential) throw badRequest(e.message);
    throw e;
  }
}
