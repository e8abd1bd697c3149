import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { tiktokTypes } from "@/lib/platforms/tiktok/tiktok-provider";
import { operations as tiktokOperations } from "@/lib/platforms/tiktok/tiktok-operations";
import { operations as tiktokWrites } from "@/lib/platforms/tiktok/tiktok-writes";

export const platform: Platform = {
  id: "tiktok",
  types: tiktokTypes,
  operations: [...tiktokOperations, ...tiktokWrites],
};
