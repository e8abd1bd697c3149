import type { PlatformCase } from "./case";

// Every platform case file, one line each.
export const PLATFORM_CASES: PlatformCase[] = [];
