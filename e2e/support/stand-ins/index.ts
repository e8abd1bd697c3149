import { testClient, type StandIn, type StandInModule } from "./stand-in-server";
import { standIn as google } from "./google";
import { standIn as meta } from "./meta";
import { standIn as linkedin } from "./linkedin";
import { standIn as tiktok } from "./tiktok";
import { standIn as shopify } from "./shopify";
import { standIn as slack } from "./slack";
import { standIn as hubspot } from "./hubspot";
import { standIn as apiKeys } from "./api-keys";
import { standIn as pinterest } from "./pinterest";
import { standIn as snapchat } from "./snapchat";
import { standIn as reddit } from "./reddit";

const ALL: StandInModule[] = [
  google,
  meta,
  linkedin,
  tiktok,
  shopify,
  slack,
  hubspot,
  apiKeys,
  pinterest,
  snapchat,
  reddit,
];

/**
 * Starts every provider stand-in and returns the environment that points the app at them:
 * PROVIDER_BASE_URLS for their types and the OAUTH_<PROVIDER>_CLIENT_ID/SECRET of the test
 * OAuth apps.
 */
export async function startStandIns() {
  const started: StandIn[] = [];
  const baseUrls: Record<string, string> = {};
  const env: Record<string, string> = {};
  for (const mod of ALL) {
    const s = await mod.start();
    started.push(s);
    for (const type of mod.types) baseUrls[type] = s.url;
    Object.assign(env, mod.env ?? {});
    for (const provider of mod.oauthProviders) {
      const c = testClient(provider);
      env[`OAUTH_${provider}_CLIENT_ID`] = c.clientId;
      env[`OAUTH_${provider}_CLIENT_SECRET`] = c.clientSecret;
    }
  }
  env.PROVIDER_BASE_URLS = JSON.stringify(baseUrls);
  return { env, baseUrls, stop: () => Promise.all(started.map((s) => s.stop())) };
}
