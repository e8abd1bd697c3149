import "server-only";
import { prepared, read } from "@/lib/db/read";
import { notFound } from "@/lib/errors/api-error";
import { authLinkStatusJson } from "@/lib/auth-links/auth-link-status";
import { connectionToJson } from "@/lib/connections/connection-to-json";

const findLink = prepared((a: { id: string; teamId: string; userId: string }) =>
  read
    .selectFrom("AuthLink as a")
    // The link's connection, joined only when this user may see it (shared, or their own private one).
    .leftJoin("Connection as c", (j) =>
      j
        .onRef("c.id", "=", "a.connectionId")
        .onRef("c.teamId", "=", "a.teamId")
        .on((eb) => eb.or([eb("c.ownerUserId", "is", null), eb("c.ownerUserId", "=", a.userId)])),
    )
    .select([
      "a.id",
      "a.connectionType",
      "a.connectionId",
      "a.externalId",
      "a.expiresAt",
      "a.consumedAt",
      "a.createdAt",
      "a.updatedAt",
      "c.id as visibleId",
      "c.type",
      "c.displayName",
      "c.externalId as connectionExternalId",
      "c.ownerUserId",
      "c.createdAt as connectionCreatedAt",
      "c.updatedAt as connectionUpdatedAt",
    ])
    .where("a.id", "=", a.id)
    .where("a.teamId", "=", a.teamId),
);

/** Spec §4.7: only links of the caller's team; the created connection when it is visible to the caller. */
export async function getAuthLinkStatusOrThrow(teamId: string, userId: string, authLinkId: string) {
  const [link] = await findLink({ id: authLinkId, teamId, userId });
  if (!link) throw notFound(`No auth link ${authLinkId} in this team.`);
  return authLinkStatusJson(
    {
      id: link.id,
      connectionType: link.connectionType,
      connectionId: link.connectionId,
      externalId: link.externalId,
      expiresAt: link.expiresAt,
      consumedAt: link.consumedAt,
      createdAt: link.createdAt,
      updatedAt: link.updatedAt,
    },
    link.visibleId === null
      ? []
      : [
          connectionToJson({
            id: link.visibleId,
            type: link.type!,
            displayName: link.displayName,
            externalId: link.connectionExternalId,
            ownerUserId: link.ownerUserId,
            createdAt: link.connectionCreatedAt!,
            updatedAt: link.connectionUpdatedAt!,
          }),
        ],
  );
}
