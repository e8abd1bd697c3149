import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { operations as utilityOperations } from "@/lib/platforms/utility/utility-operations";
import { operations as patchbayOperations } from "@/lib/platforms/utility/patchbay-operations";

export const platform: Platform = {
  id: "utility",
  types: [],
  operations: [...utilityOperations, ...patchbayOperations],
};
