import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { sandboxTypes } from "@/lib/platforms/sandbox/sandbox-provider";
import { operations as sandboxOperations } from "@/lib/platforms/sandbox/sandbox-operations";

export const platform: Platform = {
  id: "sandbox",
  types: sandboxTypes,
  operations: [...sandboxOperations],
  sandbox: true,
};
