import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { pinterestTypes } from "@/lib/platforms/pinterest/pinterest-provider";
import { operations as pinterestOperations } from "@/lib/platforms/pinterest/pinterest-operations";
import { operations as pinterestWrites } from "@/lib/platforms/pinterest/pinterest-writes";

export const platform: Platform = {
  id: "pinterest",
  types: pinterestTypes,
  operations: [...pinterestOperations, ...pinterestWrites],
};
