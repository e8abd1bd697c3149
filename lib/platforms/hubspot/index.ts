import "server-only";
import type { Platform } from "@/lib/platforms/kit/platform";
import { hubspotTypes } from "@/lib/platforms/hubspot/hubspot-provider";
import { operations as hubspotOperations } from "@/lib/platforms/hubspot/hubspot-operations";
import { operations as hubspotWrites } from "@/lib/platforms/hubspot/hubspot-writes";
import { operations as hubspotDeals } from "@/lib/platforms/hubspot/hubspot-deals";

export const platform: Platform = {
  id: "hubspot",
  types: hubspotTypes,
  operations: [...hubspotOperations, ...hubspotWrites, ...hubspotDeals],
};
