import "server-only";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import { product as merchant } from "@/lib/platforms/google/merchant";
import { product as businessProfile } from "@/lib/platforms/google/business-profile";
import { product as youtube } from "@/lib/platforms/google/youtube";
import { product as dv360 } from "@/lib/platforms/google/dv360";

// Google marketing products (Merchant Center, Business Profile, YouTube, Display & Video 360), one line each.
export const marketingProducts: readonly GoogleProduct[] = [merchant, businessProfile, youtube, dv360];
