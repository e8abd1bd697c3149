import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { snapchatTypes } from "@/lib/platforms/snapchat/snapchat-provider";
import { operations as snapchatOperations } from "@/lib/platforms/snapchat/snapchat-operations";
import { operations as snapchatWrites } from "@/lib/platforms/snapchat/snapchat-writes";

export const platform: Platform = {
  id: "snapchat",
  types: snapchatTypes,
  operations: [...snapchatOperations, ...snapchatWrites],
};
