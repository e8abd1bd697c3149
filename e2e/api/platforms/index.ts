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
];
