import type { Instant } from "@/lib/db/read-types";
import type { ConnectionJson } from "@/lib/schemas/connections";

type Row = {
  id: string;
  type: string;
  displayName: string | null;
  externalId: string | null;
  ownerUserId: string | null;
  createdAt: Date | Instant;
  updatedAt: Date | Instant;
};

/** Spec §9.4: connection responses use milliseconds, except create-from-credentials (seconds). */
export function connectionToJson(row: Row, unit: "ms" | "s" = "ms"): ConnectionJson {
  const t = (d: Date | Instant) => {
    const ms = d instanceof Date ? d.getTime() : d;
    return unit === "ms" ? ms : Math.floor(ms / 1000);
  };
  return {
    id: row.id,
    type: row.type,
    display_name: row.displayName,
    external_id: row.externalId,
    is_private: row.ownerUserId !== null,
    created_at: t(row.createdAt),
    updated_at: t(row.updatedAt),
  };
}

/** Never select the credentials column for a response. */
export const connectionPublicSelect = {
  id: true,
  type: true,
  displayName: true,
  externalId: true,
  ownerUserId: true,
  createdAt: true,
  updatedAt: true,
} as const;
