import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { shopifyTypes } from "@/lib/platforms/shopify/shopify-provider";
import { operations as shopifyOperations } from "@/lib/platforms/shopify/shopify-operations";

export const platform: Platform = {
  id: "shopify",
  types: shopifyTypes,
  operations: [...shopifyOperations],
};
