import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { metaTypes } from "@/lib/platforms/meta/meta-provider";
import { operations as metaOperations } from "@/lib/platforms/meta/meta-operations";
import { operations as metaAdsWrites } from "@/lib/platforms/meta/meta-ads-writes";
import { operations as metaAdsObjects } from "@/lib/platforms/meta/meta-ads-objects";
import { pagesProduct } from "@/lib/platforms/meta/pages/pages-product";
import { instagramProduct } from "@/lib/platforms/meta/instagram/instagram-product";
import { whatsappProduct } from "@/lib/platforms/meta/whatsapp/whatsapp-product";

// Meta's Graph API products beyond Meta Ads, one line each: their folders hold the rest.
const products = [pagesProduct, instagramProduct, whatsappProduct];

export const platform: Platform = {
  id: "meta",
  types: [...metaTypes, ...products.flatMap((p) => p.types)],
  operations: [...metaOperations, ...metaAdsWrites, ...metaAdsObjects, ...products.flatMap((p) => p.operations)],
};
