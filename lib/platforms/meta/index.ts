import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { metaTypes } from "@/lib/platforms/meta/meta-provider";
import { operations as metaOperations } from "@/lib/platforms/meta/meta-operations";
import { operations as metaAdsWrites } from "@/lib/platforms/meta/meta-ads-writes";

export const platform: Platform = {
  id: "meta",
  types: metaTypes,
  operations: [...metaOperations, ...metaAdsWrites],
};
