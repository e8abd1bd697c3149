import "server-only";
import { z } from "zod";
import { defineUtility } from "@/lib/platforms/kit/define-operation";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { builtinService } from "@/lib/platforms/kit/builtin-services";
import { createAuthLinkBodySchema } from "@/lib/schemas/auth-links";

// Built-ins that act on Patchbay itself, for workflows: no connection, no provider, 0 credits.

const link = createAuthLinkBodySchema.shape;

const createAuthLinkOperation = defineUtility({
  id: "patchbay.create_auth_link",
  title: "Create an auth link",
  description:
    "Makes a new auth link of this team (as POST /v1/connections/auth-link does), for the workflow's creator: e.g. when a client's connection needs re-authorization, a link to send them. Returns the AuthLink {id, url, expires_at}; the url lets whoever has it connect an account to this team for 24 hours.",
  example: { connection_type: "sandbox_oauth", external_id: "acme" },
  input: {
    connection_type: link.connection_type.describe(
      "The type to connect, e.g. google_ads or {{trigger.event.data.connection.type}}.",
    ),
    external_id: link.external_id
      .unwrap()
      .nullish()
      .describe("Stored on the connection it makes, e.g. {{trigger.event.data.connection.external_id}} (null: none)."),
    redirect_url: link.redirect_url.unwrap().nullish().describe("Where the client lands afterwards (https)."),
  },
  output: {
    id: z.string().describe("The link's ID, for GET /v1/connections/auth-links/{id}"),
    url: z.string().describe("The address to send the client to"),
    expires_at: z.number().int().describe("Expiry, Unix milliseconds"),
  },
  run: async (input, scope) => {
    if (!scope?.teamId || !scope.userId)
      throw new Error("patchbay.create_auth_link runs in a workflow of a team, for the workflow's creator.");
    return builtinService("createAuthLink")(
      { teamId: scope.teamId, userId: scope.userId },
      {
        connection_type: input.connection_type,
        external_id: input.external_id ?? undefined,
        redirect_url: input.redirect_url ?? undefined,
      },
    );
  },
});

export const operations: Operation[] = [createAuthLinkOperation];
