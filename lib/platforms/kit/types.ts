/** What a provider adapter learns from a successful identity call. */
export type VerifiedAccount = {
  /** Which existing connection a post of the same account replaces (spec §4.2); null = always new. */
  rotationKey: string | null;
  accountId?: string;
  /** Shown as the display_name of a connection made through OAuth (an email, a workspace, a store). */
  accountName?: string;
};

type VerifyContext = { type: string; name: string };

/** How rotation is keyed for a type (spec §4.2). */
type RotationFamily = "white_label" | "team_messaging" | "storefront" | "api_key" | "oauth_only";

/** Tokens a provider issued, as stored (encrypted) on an OAuth connection. */
export type TokenSet = {
  accessToken: string;
  refreshToken?: string | null;
  /** Epoch milliseconds; null when the token does not expire. */
  expiresAt?: number | null;
  scope?: string | null;
  /**
   * Provider facts later calls need (Shopify shop domain, Slack team id, TikTok advertiser ids …);
   * never secrets beyond the tokens.
   */
  extra?: Record<string, unknown>;
};

/**
 * A connection's credentials, ready to call its provider with (lib/connections/fresh-credentials.ts
 * refreshes OAuth tokens first).
 */
export type FreshCredentials =
  { kind: "oauth"; tokens: TokenSet } | { kind: "manual"; credentials: Record<string, string> };

/** The OAuth app of a provider, from OAUTH_<PROVIDER>_CLIENT_ID / OAUTH_<PROVIDER>_CLIENT_SECRET. */
export type OAuthClient = { clientId: string; clientSecret: string };

export type OAuthContext = {
  type: string;
  client: OAuthClient;
  /** `${APP_URL}/oauth/callback`: the one redirect URI to register with every provider. */
  redirectUri: string;
  /** Shopify only: the store domain the end user typed on the connect page ("acme.myshopify.com"). */
  shop?: string;
};

/**
 * One scope (or, for a provider that sets them on the app, one permission) a type asks for.
 * `changes`: the scope lets the holder change things, not only read them; a type asking for
 * one must name its writes on the consent page (e2e/unit/consent-text.spec.ts).
 */
export type OAuthScope = { name: string; allows: string; changes?: boolean };

/**
 * How a type connects through OAuth 2.0 authorization code. Every URL is the provider's real
 * one; the flow passes it through providerUrl(), so PROVIDER_BASE_URLS can point it elsewhere.
 */
export type OAuthDefinition = {
  /** Configuration key: OAUTH_<provider>_CLIENT_ID and OAUTH_<provider>_CLIENT_SECRET, e.g. "GOOGLE". */
  provider: string;
  /** Display name of the provider ("Google", "Meta") for pages and error texts. */
  providerName: string;
  /**
   * Every scope the authorize request asks for (in that order), each with what it allows in
   * plain words. The consent text lists them; the unit test holds them to the authorize URL.
   */
  scopes: readonly OAuthScope[];
  /**
   * Set when the provider grants the permissions configured on the app rather than scopes named
   * in the authorize URL (TikTok): `scopes` then lists the app's permissions, sent nowhere.
   */
  scopesSetOnApp?: boolean;
  /**
   * What the identity call reads, in plain words ("See which HubSpot account you connected"):
   * the first line of what the connection can read, before the catalogue's reads
   * (lib/operations/consent-text.ts derives the rest from the operations).
   */
  identity: string;
  /** Send code_challenge (S256) on authorize and code_verifier on the token call. */
  pkce: boolean;
  /** The connect page asks for the store domain first (Shopify). */
  needsShop?: boolean;
  /** The provider's authorize URL with every query parameter it needs. */
  authorizeUrl(ctx: OAuthContext & { state: string; codeChallenge?: string }): string;
  /**
   * The callback's query → tokens: reads the code from the provider's parameter (`code`, or
   * `auth_code` for TikTok), calls the token endpoint. Throws ProviderRejection for an invalid or
   * used code, ProviderUnavailable when the provider cannot be reached or answers nonsense.
   */
  exchangeCode(ctx: OAuthContext & { callback: URLSearchParams; codeVerifier?: string }): Promise<TokenSet>;
  /** A new access token from a refresh token; ProviderRejection when the provider refuses it. */
  refresh?(ctx: OAuthContext, refreshToken: string): Promise<TokenSet>;
  /** The identity call: proves the tokens work and names the account and its rotation key. */
  identify(ctx: OAuthContext, tokens: TokenSet): Promise<VerifiedAccount>;
};

export type ConnectionTypeDefinition = {
  type: string;
  name: string;
  /** Square logo, an SVG data URI or a path under /public (shown on the connect page and in the dashboard). */
  logo?: string;
  /** Methods the type supports; `oauth` is offered only while its OAuth app is configured. */
  authMethods: ("oauth" | "manual")[];
  credentialFields: string[] | null;
  /** Markdown page served at /docs/connections/<type>.md; null when there is none. */
  docs: string | null;
  family: RotationFamily;
  /**
   * Every host the type calls or sends a browser to ("slack.com", or "*.myshopify.com" for one
   * label under a domain); providerFetch refuses any other (PROVIDER_BASE_URLS aside).
   */
  hosts: readonly string[];
  /**
   * Proves the credentials work with an identity call to the provider; throws ProviderRejection or
   * ProviderUnavailable.
   */
  verify?: (credentials: Record<string, string>, ctx: VerifyContext) => Promise<VerifiedAccount>;
  oauth?: OAuthDefinition;
  /** A model the agent talks to (CONTRACT §11); such a connection runs no operation. */
  model?: ModelDefinition;
};

/** How the agent calls a model connection. */
export type ModelDefinition = {
  /** OpenAI Chat Completions (so any OpenAI-compatible endpoint) or Anthropic Messages. */
  wire: "openai_chat" | "anthropic_messages";
  /** The API's base URL, before `/chat/completions` or `/messages`. */
  baseUrl: () => string;
  /** Used when a conversation names none. */
  defaultModel: string;
  /** The credential field holding the key; null for a model inside Patchbay (no key). */
  keyField: string | null;
};

/** The provider said no: the reason text reaches the caller as a 400. */
export class ProviderRejection extends Error {
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * The provider refused the credential itself (HTTP 401, `invalid_token`, a revoked grant), not
 * just this request: the access behind the connection is gone. On use, an OAuth connection then
 * gets one refresh and, failing that, needs re-authorization (lib/connections/call-with-credentials.ts).
 */
export class CredentialRejected extends ProviderRejection {}

/**
 * The provider could not be reached or answered nonsense: a 502 naming the provider.
 * `maybeApplied`: no answer came after the request may have reached it (a timeout, a dropped
 * connection), so a write that is not safe to repeat must not be sent again.
 */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: string,
    readonly reason: string,
    readonly maybeApplied = false,
  ) {
    super(reason);
  }
}

/**
 * A credential holds characters the provider's protocol cannot carry (e.g. a line break in a
 * header): the caller's input, a 400.
 */
export class UnsendableCredential extends Error {
  constructor(readonly provider: string) {
    super(
      `A credential contains characters that cannot be sent to ${provider} (line breaks, NUL or characters outside Latin-1 in an HTTP header).`,
    );
  }
}
