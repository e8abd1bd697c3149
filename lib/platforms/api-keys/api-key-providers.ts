import "server-only";
import { providerFetch, providerReason, type ProviderResponse, rejection } from "@/lib/platforms/kit/provider-fetch";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type VerifiedAccount,
} from "@/lib/platforms/kit/types";
import { apiKeyDocs } from "@/lib/platforms/api-keys/api-key-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(apiKeyTypes, type);

// The five API-key types (spec §4.2): one cheap read call proves the key works; nothing keys
// rotation, so every post creates a new connection.

const logo = monogramLogo;

/** The headers each API-key provider authenticates a call with (verification and the MCP tools alike). */
export const apiKeyHeaders = {
  openai: (key: string) => ({ authorization: `Bearer ${key}` }),
  anthropic: (key: string) => ({ "x-api-key": key, "anthropic-version": "2023-06-01" }),
  klaviyo: (key: string) => ({
    authorization: `Klaviyo-API-Key ${key}`,
    revision: "2024-10-15",
    accept: "application/vnd.api+json",
  }),
  stripe: (key: string) => ({ authorization: `Bearer ${key}` }),
};

/** `{error: {code?, type, message}}` (OpenAI, Stripe): the code when there is one, it is the more specific. */
export function errorObjectReason(res: ProviderResponse): string {
  const error = (res.body as { error?: { code?: unknown; type?: unknown; message?: unknown } } | null)?.error;
  if (error && typeof error === "object" && typeof error.message === "string") {
    const code =
      typeof error.code === "string" && error.code ? error.code : typeof error.type === "string" ? error.type : null;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return providerReason(res);
}

/** 4xx (but 429) = the provider refused the key; 429, 5xx, redirects = the provider is in trouble. */
export function refuseOrUnavailable(
  provider: string,
  res: ProviderResponse,
  reason: (res: ProviderResponse) => string = providerReason,
): never {
  if (res.status >= 400 && res.status < 500 && res.status !== 429) throw rejection(provider, res, reason(res));
  throw new ProviderUnavailable(provider, `${provider} answered ${reason(res)}.`);
}

export function nonsense(provider: string, what: string, res: ProviderResponse): never {
  throw new ProviderUnavailable(
    provider,
    `${provider} ${what} answered ${res.status} with an unexpected body: ${res.text.slice(0, 200)}`,
  );
}

const openai: ConnectionTypeDefinition = {
  type: "openai",
  name: "OpenAI",
  logo: logo("#10A37F", "O"),
  authMethods: ["manual"],
  credentialFields: ["api_key"],
  docs: apiKeyDocs.openai,
  family: "api_key",
  hosts: ["api.openai.com"],
  model: {
    wire: "openai_chat",
    baseUrl: () => "https://api.openai.com/v1",
    defaultModel: "gpt-4.1-mini",
    keyField: "api_key",
  },
  async verify(credentials, ctx): Promise<VerifiedAccount> {
    const res = await providerFetch("OpenAI", hosted(ctx.type), "https://api.openai.com/v1/models", {
      headers: apiKeyHeaders.openai(credentials.api_key),
    });
    if (res.status !== 200) refuseOrUnavailable("OpenAI", res, errorObjectReason);
    if (!Array.isArray((res.body as { data?: unknown } | null)?.data)) nonsense("OpenAI", "GET /v1/models", res);
    return { rotationKey: null };
  },
};

const anthropic: ConnectionTypeDefinition = {
  type: "anthropic",
  name: "Anthropic",
  logo: logo("#D97757", "A"),
  authMethods: ["manual"],
  credentialFields: ["api_key"],
  docs: apiKeyDocs.anthropic,
  family: "api_key",
  hosts: ["api.anthropic.com"],
  model: {
    wire: "anthropic_messages",
    baseUrl: () => "https://api.anthropic.com/v1",
    defaultModel: "claude-sonnet-4-5",
    keyField: "api_key",
  },
  async verify(credentials, ctx): Promise<VerifiedAccount> {
    const res = await providerFetch("Anthropic", hosted(ctx.type), "https://api.anthropic.com/v1/models", {
      headers: apiKeyHeaders.anthropic(credentials.api_key),
    });
    // {type:"error", error:{type:"authentication_error", message:"invalid x-api-key"}}:
    // providerReason reads error.type and error.message.
    if (res.status !== 200) refuseOrUnavailable("Anthropic", res);
    if (!Array.isArray((res.body as { data?: unknown } | null)?.data)) nonsense("Anthropic", "GET /v1/models", res);
    return { rotationKey: null };
  },
};

const klaviyo: ConnectionTypeDefinition = {
  type: "klaviyo",
  name: "Klaviyo",
  logo: logo("#1C1C1C", "K"),
  authMethods: ["manual"],
  credentialFields: ["private_api_key"],
  docs: apiKeyDocs.klaviyo,
  family: "api_key",
  hosts: ["a.klaviyo.com"],
  async verify(credentials, ctx): Promise<VerifiedAccount> {
    const res = await providerFetch("Klaviyo", hosted(ctx.type), "https://a.klaviyo.com/api/accounts/", {
      headers: apiKeyHeaders.klaviyo(credentials.private_api_key),
    });
    // JSON:API errors ({errors:[{code, title, detail}]}): providerReason gives "not_authenticated:
    // Missing or invalid private key."
    if (res.status !== 200) refuseOrUnavailable("Klaviyo", res);
    const account = (
      res.body as {
        data?: { id?: unknown; attributes?: { contact_information?: { organization_name?: unknown } } }[];
      } | null
    )?.data?.[0];
    if (!account || typeof account.id !== "string") nonsense("Klaviyo", "GET /api/accounts/", res);
    const organization = account.attributes?.contact_information?.organization_name;
    return {
      rotationKey: null,
      accountId: account.id,
      accountName: typeof organization === "string" && organization ? organization : undefined,
    };
  },
};

/**
 * Semrush answers plain text, errors too ("ERROR 120 :: WRONG KEY - ID PAIR", often with HTTP 200):
 * the text of a good answer.
 */
export function semrushTextOrThrow(res: ProviderResponse): string {
  const text = res.text.trim();
  if (/^ERROR \d+ ::/.test(text) && res.status < 500) throw new ProviderRejection("Semrush", text.slice(0, 200));
  if (res.status !== 200) refuseOrUnavailable("Semrush", res);
  return text;
}

const semrush: ConnectionTypeDefinition = {
  type: "semrush",
  name: "Semrush",
  logo: logo("#FF642D", "S"),
  authMethods: ["manual"],
  credentialFields: ["api_key"],
  docs: apiKeyDocs.semrush,
  family: "api_key",
  hosts: ["www.semrush.com", "api.semrush.com"],
  async verify(credentials, ctx): Promise<VerifiedAccount> {
    // The API-unit balance costs no units; errors are plain text ("ERROR 120 :: WRONG KEY - ID PAIR").
    const res = await providerFetch(
      "Semrush",
      hosted(ctx.type),
      urlWith("https://www.semrush.com/users/countapiunits.html", { key: credentials.api_key }),
    );
    const text = semrushTextOrThrow(res);
    if (!/^\d+$/.test(text)) nonsense("Semrush", "countapiunits", res);
    return { rotationKey: null };
  },
};

const stripe: ConnectionTypeDefinition = {
  type: "stripe",
  name: "Stripe",
  logo: logo("#635BFF", "S"),
  authMethods: ["manual"],
  credentialFields: ["secret_key"],
  docs: apiKeyDocs.stripe,
  family: "api_key",
  hosts: ["api.stripe.com"],
  async verify(credentials, ctx): Promise<VerifiedAccount> {
    const res = await providerFetch("Stripe", hosted(ctx.type), "https://api.stripe.com/v1/account", {
      headers: apiKeyHeaders.stripe(credentials.secret_key),
    });
    if (res.status !== 200) refuseOrUnavailable("Stripe", res, errorObjectReason);
    const account = res.body as {
      id?: unknown;
      email?: unknown;
      business_profile?: { name?: unknown };
      settings?: { dashboard?: { display_name?: unknown } };
    } | null;
    if (typeof account?.id !== "string") nonsense("Stripe", "GET /v1/account", res);
    const name = [account.settings?.dashboard?.display_name, account.business_profile?.name, account.email].find(
      (v) => typeof v === "string" && v,
    );
    return { rotationKey: null, accountId: account.id, accountName: name as string | undefined };
  },
};

export const apiKeyTypes: ConnectionTypeDefinition[] = [openai, anthropic, klaviyo, semrush, stripe];
