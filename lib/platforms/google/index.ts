import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { googleTypes } from "@/lib/platforms/google/google-provider";
import { operations as googleOperations } from "@/lib/platforms/google/google-operations";
import { operations as googleAdsWrites } from "@/lib/platforms/google/google-ads-writes";
import { operations as googleAdsReports } from "@/lib/platforms/google/google-ads-reports";
import { operations as googleAnalyticsReports } from "@/lib/platforms/google/google-analytics-reports";
import { workspaceProducts } from "@/lib/platforms/google/workspace-products";
import { marketingProducts } from "@/lib/platforms/google/marketing-products";

const products = [...workspaceProducts, ...marketingProducts];

export const platform: Platform = {
  id: "google",
  types: [...googleTypes, ...products.flatMap((p) => p.types)],
  operations: [
    ...googleOperations,
    ...googleAdsWrites,
    ...googleAdsReports,
    ...googleAnalyticsReports,
    ...products.flatMap((p) => p.operations),
  ],
};
