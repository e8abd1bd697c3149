import type { PlatformCase } from "./case";
import { linkedinAds } from "./linkedin";
import { pinterestCases } from "./pinterest";
import { snapchatCases } from "./snapchat";
import { redditCases } from "./reddit";
import { googleAdsDepth, ga4Depth, gscDepth } from "./depth-google";
import { shopifyDepth, hubspotDepth } from "./depth-commerce";
import { klaviyoDepth } from "./depth-klaviyo";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [
  linkedinAds,
  ...pinterestCases,
  ...snapchatCases,
  ...redditCases,
  ...[googleAdsDepth, ga4Depth, gscDepth],
  ...[shopifyDepth, hubspotDepth],
  klaviyoDepth,
];
