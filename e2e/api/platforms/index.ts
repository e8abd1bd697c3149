import type { PlatformCase } from "./case";
import { pinterestCases } from "./pinterest";
import { snapchatCases } from "./snapchat";
import { redditCases } from "./reddit";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [...pinterestCases, ...snapchatCases, ...redditCases];
