import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { shopifyTypes } from "@/lib/platforms/shopify/shopify-provider";
import { operations as shopifyOperations } from "@/lib/platforms/shopify/shopify-operations";
import { operations as shopifyCatalog } from "@/lib/platforms/shopify/shopify-catalog";

export const platform: Platform = {
  id: "shopify",
  types: shopifyTypes,
  operations: [...shopifyOperations, ...shopifyCatalog],
};
