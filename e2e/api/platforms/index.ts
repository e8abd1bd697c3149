import type { PlatformCase } from "./case";
import { GOOGLE_MARKETING_CASES } from "./google-marketing";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [...GOOGLE_MARKETING_CASES];
