import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { apiKeyTypes } from "@/lib/platforms/api-keys/api-key-providers";
import { operations as apiKeyOperations } from "@/lib/platforms/api-keys/api-key-operations";
import { operations as klaviyoWrites } from "@/lib/platforms/api-keys/klaviyo-writes";
import { operations as klaviyoReports } from "@/lib/platforms/api-keys/klaviyo-reports";

export const platform: Platform = {
  id: "api_keys",
  types: apiKeyTypes,
  operations: [...apiKeyOperations, ...klaviyoWrites, ...klaviyoReports],
};
