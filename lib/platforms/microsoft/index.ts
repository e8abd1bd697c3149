import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { microsoftTypes } from "@/lib/platforms/microsoft/microsoft-provider";
import { operations as microsoftOperations } from "@/lib/platforms/microsoft/microsoft-operations";
import { operations as microsoftWrites } from "@/lib/platforms/microsoft/microsoft-writes";

export const platform: Platform = {
  id: "microsoft",
  types: microsoftTypes,
  operations: [...microsoftOperations, ...microsoftWrites],
};
