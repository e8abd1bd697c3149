import type { PlatformCase } from "./case";
import { linkedinAds } from "./linkedin";
import { facebookPages, instagram, whatsapp, metaAds } from "./meta";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [linkedinAds, facebookPages, instagram, whatsapp, metaAds];
