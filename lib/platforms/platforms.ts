import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { platform as sandbox } from "@/lib/platforms/sandbox";
import { platform as google } from "@/lib/platforms/google";
import { platform as meta } from "@/lib/platforms/meta";
import { platform as linkedin } from "@/lib/platforms/linkedin";
import { platform as tiktok } from "@/lib/platforms/tiktok";
import { platform as shopify } from "@/lib/platforms/shopify";
import { platform as slack } from "@/lib/platforms/slack";
import { platform as hubspot } from "@/lib/platforms/hubspot";
import { platform as pinterest } from "@/lib/platforms/pinterest";
import { platform as snapchat } from "@/lib/platforms/snapchat";
import { platform as reddit } from "@/lib/platforms/reddit";
import { platform as apiKeys } from "@/lib/platforms/api-keys";
import { platform as utility } from "@/lib/platforms/utility";

// Every platform Patchbay connects to, one line each: its folder holds the rest. The connection
// types, the operations catalogue, the docs pages and the MCP tools all read this list, in this
// order (the sandbox's types come after the real ones, and only while it is enabled).
export const PLATFORMS: readonly Platform[] = [
  sandbox,
  google,
  meta,
  linkedin,
  tiktok,
  shopify,
  slack,
  hubspot,
  pinterest,
  snapchat,
  reddit,
  apiKeys,
  utility,
];
