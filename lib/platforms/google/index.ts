import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { googleTypes } from "@/lib/platforms/google/google-provider";
import { operations as googleOperations } from "@/lib/platforms/google/google-operations";
import { operations as googleAdsWrites } from "@/lib/platforms/google/google-ads-writes";

export const platform: Platform = {
  id: "google",
  types: googleTypes,
  operations: [...googleOperations, ...googleAdsWrites],
};
