import type { PlatformCase } from "./case";
import { linkedinAds } from "./linkedin";
import { pinterestCases } from "./pinterest";
import { snapchatCases } from "./snapchat";
import { redditCases } from "./reddit";
import { microsoftAds } from "./microsoft";
import { amazonAds } from "./amazon";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [
  linkedinAds,
  ...pinterestCases,
  ...snapchatCases,
  ...redditCases,
  microsoftAds,
  amazonAds,
];
