import { randomToken } from "@/lib/security/ids";

/** MCP tokens: "pbm_" and 40 base62 characters; distinct from API keys ("pbk_"), so neither passes for the other. */
export const MCP_TOKEN_PATTERN = /^pbm_[0-9A-Za-z]{40}$/;

export function generateMcpToken(): { token: string; prefix: string } {
  const token = `pbm_${randomToken(40)}`;
  return { token, prefix: token.slice(0, 12) };
}
