import "server-only";
import { hash } from "node:crypto";
import { db } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { randomToken } from "@/lib/security/ids";
import { sha256Hex } from "@/lib/security/hashing";
import { mcpResource } from "@/lib/mcp-oauth/metadata";
import { OAuthError } from "@/lib/mcp-oauth/oauth-error";
import { revokeGrant } from "@/lib/mcp-oauth/revoke-grant";

// Codes, access tokens and refresh tokens of a grant (CONTRACT §10). All are random and stored
// as their SHA-256 only. A code is single-use and lives 60 s; an access token an hour; a refresh
// token rotates at each use. Using a spent code or a rotated refresh token again means someone
// else holds it: the whole grant is revoked (OAuth 2.1 §4.1.3 and §4.3.1).

const CODE_TTL_MS = 60_000;
const ACCESS_TTL_S = 3600;
const REFRESH_TTL_MS = 90 * 24 * 3600 * 1000;

export const ACCESS_TOKEN_PATTERN = /^pbo_[0-9A-Za-z]{40}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Stores a new code for `grantId` (in the consent's transaction) and returns it. */
export async function issueCode(tx: Tx, grantId: string, redirectUri: string, codeChallenge: string) {
  const code = randomToken(43);
  await tx.oAuthToken.create({
    data: {
      hash: sha256Hex(code),
      grantId,
      kind: "code",
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
      redirectUri,
      codeChallenge,
    },
  });
  return code;
}

async function issuePair(tx: Tx, grantId: string) {
  const access = `pbo_${randomToken(40)}`;
  const refresh = `pbr_${randomToken(40)}`;
  const now = Date.now();
  await tx.oAuthToken.createMany({
    data: [
      { hash: sha256Hex(access), grantId, kind: "access", expiresAt: new Date(now + ACCESS_TTL_S * 1000) },
      { hash: sha256Hex(refresh), grantId, kind: "refresh", expiresAt: new Date(now + REFRESH_TTL_MS) },
    ],
  });
  // Spent codes and tokens past their time are of no more use.
  await tx.oAuthToken.deleteMany({ where: { grantId, expiresAt: { lt: new Date(now) } } });
  return { access_token: access, token_type: "Bearer" as const, expires_in: ACCESS_TTL_S, refresh_token: refresh };
}

const s256 = (verifier: string) => hash("sha256", verifier, "base64url");

function checkResource(form: URLSearchParams) {
  const resources = form.getAll("resource");
  if (resources.length > 1) throw new OAuthError("invalid_target", "Name one resource.");
  if (resources.length && resources[0] !== mcpResource())
    throw new OAuthError("invalid_target", `This server issues tokens for ${mcpResource()} only, not ${resources[0]}.`);
}

const required = (form: URLSearchParams, name: string) => {
  const v = form.get(name);
  if (!v) throw new OAuthError("invalid_request", `${name} is required.`);
  return v;
};

/**
 * Marks a code or refresh token used, atomically: when another request spent it first (a copy
 * raced the client), that is a reuse like any other and the grant ends.
 */
async function spend(token: string, grantId: string, reuse: string) {
  const { count } = await db.oAuthToken.updateMany({
    where: { hash: sha256Hex(token), usedAt: null },
    data: { usedAt: new Date() },
  });
  if (!count) {
    await revokeGrant(grantId, reuse);
    throw new OAuthError("invalid_grant", "This was already used; the grant is revoked. Sign in again.");
  }
}

/** grant_type=authorization_code */
export async function exchangeCode(form: URLSearchParams) {
  const code = required(form, "code");
  const clientId = required(form, "client_id");
  const redirectUri = required(form, "redirect_uri");
  const verifier = required(form, "code_verifier");
  checkResource(form);
  const row = await db.oAuthToken.findUnique({
    where: { hash: sha256Hex(code) },
    select: {
      kind: true,
      expiresAt: true,
      usedAt: true,
      redirectUri: true,
      codeChallenge: true,
      grant: { select: { id: true, clientId: true, revokedAt: true } },
    },
  });
  const invalid = (m: string) => new OAuthError("invalid_grant", m);
  if (!row || row.kind !== "code") throw invalid("This authorization code is not known.");
  if (row.grant.clientId !== clientId) throw invalid("This code was issued to another client.");
  if (row.usedAt) {
    await revokeGrant(row.grant.id, "its authorization code was used twice");
    throw invalid("This code was already used; everything issued with it is revoked.");
  }
  if (row.expiresAt.getTime() <= Date.now()) throw invalid("This code expired (codes live 60 seconds).");
  if (row.redirectUri !== redirectUri) throw invalid("redirect_uri differs from the authorization request's.");
  if (!VERIFIER.test(verifier) || s256(verifier) !== row.codeChallenge)
    throw invalid("code_verifier does not match the code_challenge.");
  if (row.grant.revokedAt) throw invalid("This grant was revoked.");
  await spend(code, row.grant.id, "its authorization code was used twice");
  return transaction((tx) => issuePair(tx, row.grant.id));
}

/** grant_type=refresh_token: a new pair; the one presented is spent. */
export async function refreshTokens(form: URLSearchParams) {
  const token = required(form, "refresh_token");
  // A public client names itself at every refresh (OAuth 2.1 §4.3.1): one that names no client
  // is refused before the token is even looked up, so the refusal spends and revokes nothing.
  const clientId = required(form, "client_id");
  checkResource(form);
  const invalid = (m: string) => new OAuthError("invalid_grant", m);
  const row = await db.oAuthToken.findUnique({
    where: { hash: sha256Hex(token) },
    select: {
      kind: true,
      expiresAt: true,
      usedAt: true,
      grant: { select: { id: true, clientId: true, revokedAt: true, teamId: true, userId: true } },
    },
  });
  if (!row || row.kind !== "refresh") throw invalid("This refresh token is not known.");
  if (clientId !== row.grant.clientId) throw invalid("This refresh token was issued to another client.");
  if (row.grant.revokedAt) throw invalid("This grant was revoked; sign in again.");
  if (row.usedAt) {
    await revokeGrant(row.grant.id, "a rotated refresh token was used again");
    throw invalid("This refresh token was already used; the grant is revoked. Sign in again.");
  }
  if (row.expiresAt.getTime() <= Date.now()) throw invalid("This refresh token expired; sign in again.");
  const member = await db.membership.findUnique({
    where: { teamId_userId: { teamId: row.grant.teamId, userId: row.grant.userId } },
    select: { userId: true },
  });
  if (!member) {
    await revokeGrant(row.grant.id, "its member left the team");
    throw invalid("The person who allowed this app is no longer a member of the team.");
  }
  await spend(token, row.grant.id, "a rotated refresh token was used again");
  return transaction((tx) => issuePair(tx, row.grant.id));
}

/** RFC 7009: an access or refresh token ends its whole grant. Unknown tokens are no error. */
export async function revokeByToken(token: string) {
  const row = await db.oAuthToken.findUnique({
    where: { hash: sha256Hex(token) },
    select: { kind: true, grantId: true },
  });
  if (row && row.kind !== "code") await revokeGrant(row.grantId, "the app revoked its token");
}
