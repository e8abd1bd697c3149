/** What a provider adapter learns from a successful identity call. */
export type VerifiedAccount = {
  /** Which existing connection a post of the same account replaces (spec §4.2); null = always new. */
  rotationKey: string | null;
  accountId?: string;
  accountName?: string;
};

export type VerifyContext = { type: string; name: string };

/** How rotation is keyed for a type (spec §4.2). */
export type RotationFamily = "white_label" | "team_messaging" | "storefront" | "api_key" | "oauth_only";

export type ConnectionTypeDefinition = {
  type: string;
  name: string;
  authMethods: ("oauth" | "manual")[];
  credentialFields: string[] | null;
  /** Markdown page served at /docs/connections/<type>.md; null when there is none. */
  docs: string | null;
  family: RotationFamily;
  /** Proves the credentials work with an identity call to the provider; throws ProviderRejection or ProviderUnavailable. */
  verify?: (credentials: Record<string, string>, ctx: VerifyContext) => Promise<VerifiedAccount>;
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

/** The provider could not be reached or answered nonsense: a 502 naming the provider. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** A credential holds characters the provider's protocol cannot carry (e.g. a line break in a header): the caller's input, a 400. */
export class UnsendableCredential extends Error {
  constructor(readonly provider: string) {
    super(`A credential contains characters that cannot be sent to ${provider} (line breaks, NUL or characters outside Latin-1 in an HTTP header).`);
  }
}
