import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { amazonTypes } from "@/lib/platforms/amazon/amazon-provider";
import { operations as amazonOperations } from "@/lib/platforms/amazon/amazon-operations";
import { operations as amazonWrites } from "@/lib/platforms/amazon/amazon-writes";

export const platform: Platform = {
  id: "amazon",
  types: amazonTypes,
  operations: [...amazonOperations, ...amazonWrites],
};
