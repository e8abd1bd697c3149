import type { PlatformCase } from "./case";
import { linkedinAds } from "./linkedin";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [linkedinAds];
