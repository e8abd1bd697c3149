import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { redditTypes } from "@/lib/platforms/reddit/reddit-provider";
import { operations as redditOperations } from "@/lib/platforms/reddit/reddit-operations";
import { operations as redditWrites } from "@/lib/platforms/reddit/reddit-writes";

export const platform: Platform = {
  id: "reddit",
  types: redditTypes,
  operations: [...redditOperations, ...redditWrites],
};
