import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { slackTypes } from "@/lib/platforms/slack/slack-provider";
import { operations as slackOperations } from "@/lib/platforms/slack/slack-operations";
import { operations as slackWrites } from "@/lib/platforms/slack/slack-writes";

export const platform: Platform = {
  id: "slack",
  types: slackTypes,
  operations: [...slackOperations, ...slackWrites],
};
