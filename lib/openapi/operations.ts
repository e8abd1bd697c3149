import { z } from "zod";
import { ConnectionSchema, ConnectionTypeSchema, createConnectionBodySchema, getConnectionQuerySchema, listConnectionsQuerySchema } from "@/lib/schemas/connections";
import { AuthLinkSchema, AuthLinkStatusSchema, createAuthLinkBodySchema } from "@/lib/schemas/auth-links";
import { LogPageSchema, LogSchema, listLogsQuerySchema } from "@/lib/schemas/logs";
import { CreditBalanceSchema, CreditLogPageSchema, listCreditLogsQuerySchema } from "@/lib/schemas/credits";

/** Every /v1 operation, described by the same zod schemas the handlers parse with. */
export type Operation = {
  method: "get" | "post" | "delete";
  path: string;
  tag: string;
  summary: string;
  description?: string;
  pathParams?: Record<string, string>;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  responseDescription?: string;
  errors: Partial<Record<400 | 401 | 403 | 404 | 413 | 415 | 502, string>>;
};

const auth = { 401: "Missing, invalid or revoked API key." } as const;

export const operations: Operation[] = [
  {
    method: "get",
    path: "/v1/connections",
    tag: "Connections",
    summary: "List connections",
    description: "Shared team connections plus private connections owned by the API key's user. Timestamps in milliseconds.",
    query: listConnectionsQuerySchema,
    response: z.array(ConnectionSchema),
    errors: { 400: "Invalid query parameter.", ...auth },
  },
  {
    method: "post",
    path: "/v1/connections",
    tag: "Connections",
    summary: "Create a connection from credentials",
    description:
      "Verifies the credentials with the provider before anything is stored. Rotation: white-label types are keyed on type and name, team-messaging types on workspace and app, storefront types on store; API-key types always create a new connection. The response's timestamps are Unix seconds.",
    body: createConnectionBodySchema,
    response: ConnectionSchema,
    errors: {
      400: "The type cannot be created from credentials, a credential field is missing or unrecognised, or the provider rejected the credentials (detail carries the provider's reason).",
      ...auth,
      403: "The type is white-label capable and the team is not on the Team plan.",
      413: "Body larger than 1 MB.",
      502: "The provider could not be reached; nothing was stored.",
    },
  },
  {
    method: "get",
    path: "/v1/connections/types",
    tag: "Connections",
    summary: "List connection types",
    response: z.array(ConnectionTypeSchema),
    errors: { ...auth },
  },
  {
    method: "get",
    path: "/v1/connections/{connection_id}",
    tag: "Connections",
    summary: "Get a connection (always a list)",
    description: "ID lookup returns one item; external-ID lookup may return several.",
    pathParams: { connection_id: "Connection ID, or an external ID when lookup_by is external_id." },
    query: getConnectionQuerySchema,
    response: z.array(ConnectionSchema),
    errors: { 400: "Invalid query parameter.", ...auth, 404: "Nothing matches in the caller's team." },
  },
  {
    method: "delete",
    path: "/v1/connections/{connection_id}",
    tag: "Connections",
    summary: "Delete a connection",
    description: "Deactivates the team's active workflows that use the connection. Returns the deleted connection.",
    pathParams: { connection_id: "Public connection ID only." },
    response: ConnectionSchema,
    errors: { ...auth, 404: "The connection does not exist or does not belong to the team (including other users' private connections)." },
  },
  {
    method: "post",
    path: "/v1/connections/auth-link",
    tag: "Auth links",
    summary: "Create a shareable OAuth auth link",
    description:
      "The link expires 24 hours after creation or once a connection is created from it. After OAuth, the browser is redirected to redirect_url with `status=success`, `connection_type`, `connection_id` and `external_id` (when given) appended; on failure (the link stays usable until it expires) with `status=error`, `error` and `error_description`, plus `connection_type` and `external_id` (when given). `error` is one of `access_denied` (the user declined at the provider), `provider_error` (the provider returned an error, or its token or identity call failed; the description carries its reason), `link_expired`, `link_used` (the link already created its connection) and `invalid_request`. A name already on the URL gets the appended one prefixed with `service_`; read `service_status` when present, otherwise `status`. Without a redirect_url the browser lands on Patchbay's own result page. Register `{base_url}/oauth/callback` as the redirect URI of each provider's OAuth app.",
    body: createAuthLinkBodySchema,
    response: AuthLinkSchema,
    errors: { 400: "Invalid request.", ...auth, 413: "Body larger than 1 MB." },
  },
  {
    method: "get",
    path: "/v1/connections/auth-links/{auth_link_id}/status",
    tag: "Auth links",
    summary: "Get an auth link's status",
    pathParams: { auth_link_id: "The id from link creation." },
    response: AuthLinkStatusSchema,
    errors: { ...auth, 404: "Auth link not found in the caller's team." },
  },
  {
    method: "get",
    path: "/v1/credits",
    tag: "Credits",
    summary: "Get the credit balance",
    response: CreditBalanceSchema,
    errors: { ...auth, 404: "Team not found." },
  },
  {
    method: "get",
    path: "/v1/credits/logs",
    tag: "Credits",
    summary: "List ledger entries, newest first",
    description: "The full history; the ledger is not truncated by plan.",
    query: listCreditLogsQuerySchema,
    response: CreditLogPageSchema,
    errors: { 400: "Invalid cursor or query parameter.", ...auth },
  },
  {
    method: "get",
    path: "/v1/logs",
    tag: "Logs",
    summary: "List operation logs, newest first",
    description: "Only logs inside the plan's history window (free 1 day, pro 7, team 30 by default).",
    query: listLogsQuerySchema,
    response: LogPageSchema,
    errors: { 400: "Invalid cursor or query parameter.", ...auth },
  },
  {
    method: "get",
    path: "/v1/logs/{log_id}",
    tag: "Logs",
    summary: "Get one operation log",
    pathParams: { log_id: "Log ID." },
    response: LogSchema,
    errors: { ...auth, 404: "No log with that ID in the team, or older than the history window (detail is then {message, history_days})." },
  },
];
