import "server-only";
import type { GoogleProduct } from "@/lib/platforms/google/products";

// Google marketing products (Merchant Center, Business Profile, YouTube, Display & Video 360), one line each.
export const marketingProducts: readonly GoogleProduct[] = [];
