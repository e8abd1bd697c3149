import { appUrl } from "@/lib/config/env";

// The MCP endpoint is an OAuth 2.1 resource server and Patchbay its own authorization server
// (MCP authorization, revision 2025-11-25; CONTRACT §10). These are the documents a client
// discovers from the 401 of /mcp: Protected Resource Metadata (RFC 9728), then Authorization
// Server Metadata (RFC 8414). The issuer is APP_URL exactly, so `iss` checks (RFC 9207) compare
// one string.

export const issuer = () => appUrl();
/** The one resource tokens are issued for (RFC 8707). */
export const mcpResource = () => `${appUrl()}/mcp`;
const resourceMetadataUrl = () => `${appUrl()}/.well-known/oauth-protected-resource/mcp`;

const oauthEndpoints = () => ({
  authorization: `${appUrl()}/oauth/authorize`,
  token: `${appUrl()}/oauth/token`,
  registration: `${appUrl()}/oauth/register`,
  revocation: `${appUrl()}/oauth/revoke`,
});

export function protectedResourceMetadata() {
  return {
    resource: mcpResource(),
    authorization_servers: [issuer()],
    bearer_methods_supported: ["header"],
    resource_name: "Patchbay MCP",
    resource_documentation: `${appUrl()}/docs/mcp`,
  };
}

export function authorizationServerMetadata() {
  const e = oauthEndpoints();
  return {
    issuer: issuer(),
    authorization_endpoint: e.authorization,
    token_endpoint: e.token,
    registration_endpoint: e.registration,
    revocation_endpoint: e.revocation,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${appUrl()}/docs/mcp`,
  };
}

/** The challenge of every 401 from /mcp: where the client finds how to get a token. */
export function bearerChallenge(invalidToken: boolean): string {
  const error = invalidToken ? ', error="invalid_token"' : "";
  return `Bearer resource_metadata="${resourceMetadataUrl()}"${error}`;
}

/** CORS for the documents and endpoints a browser-based client calls from its own origin. */
export const OAUTH_CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "86400",
};
