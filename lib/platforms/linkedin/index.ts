import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { linkedinTypes } from "@/lib/platforms/linkedin/linkedin-provider";
import { operations as linkedinOperations } from "@/lib/platforms/linkedin/linkedin-operations";
import { operations as linkedinWrites } from "@/lib/platforms/linkedin/linkedin-writes";

export const platform: Platform = {
  id: "linkedin",
  types: linkedinTypes,
  operations: [...linkedinOperations, ...linkedinWrites],
};
