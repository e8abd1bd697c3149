import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";

/**
 * One product on Google's app beyond Analytics, Ads and Search Console: its folder
 * (lib/platforms/google/<product>/) exports one, and the lists below name each once.
 */
export type GoogleProduct = Pick<Platform, "types" | "operations">;
