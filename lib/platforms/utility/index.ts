import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { operations as utilityOperations } from "@/lib/platforms/utility/utility-operations";

export const platform: Platform = {
  id: "utility",
  types: [],
  operations: [...utilityOperations],
};
