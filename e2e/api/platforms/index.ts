import type { PlatformCase } from "./case";
import { linkedinAds } from "./linkedin";
import { pinterestCases } from "./pinterest";
import { snapchatCases } from "./snapchat";
import { redditCases } from "./reddit";
import { googleWorkspace } from "./google-workspace";
import { facebookPages, instagram, whatsapp, metaAds } from "./meta";
import { GOOGLE_MARKETING_CASES } from "./google-marketing";
import { microsoftAds } from "./microsoft";
import { amazonAds } from "./amazon";
import { googleAdsDepth, ga4Depth, gscDepth } from "./depth-google";
import { shopifyDepth, hubspotDepth } from "./depth-commerce";
import { klaviyoDepth } from "./depth-klaviyo";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [
  linkedinAds,
  ...pinterestCases,
  ...snapchatCases,
  ...redditCases,
  ...googleWorkspace,
  ...GOOGLE_MARKETING_CASES,
  facebookPages,
  instagram,
  whatsapp,
  metaAds,
  microsoftAds,
  amazonAds,
  ...[googleAdsDepth, ga4Depth, gscDepth],
  ...[shopifyDepth, hubspotDepth],
  klaviyoDepth,
];
