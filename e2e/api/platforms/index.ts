import type { PlatformCase } from "./case";
import { linkedinAds } from "./linkedin";
import { microsoftAds } from "./microsoft";
import { amazonAds } from "./amazon";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [linkedinAds, microsoftAds, amazonAds];
