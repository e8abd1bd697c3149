import type { PlatformCase } from "./case";
import { linkedinAds } from "./linkedin";
import { GOOGLE_MARKETING_CASES } from "./google-marketing";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [linkedinAds, ...GOOGLE_MARKETING_CASES];
