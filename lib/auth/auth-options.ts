import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "@/lib/db/client";
import { appUrl, secrets } from "@/lib/config/env";
import { SignInError, signInWithPassword } from "@/lib/auth/sign-in-with-password";
import { clientIp } from "@/lib/observability/request-context";
import { resolveSsoUser } from "@/lib/auth/resolve-sso-user";
import { sameOriginPath } from "@/lib/auth/same-origin-path";

// next-auth reads its own base URL from NEXTAUTH_URL; ours is APP_URL.
process.env.NEXTAUTH_URL ??= appUrl();

/** Single sign-on through any OpenID Connect provider, when its issuer and client are configured. */
function oidcProvider(): NextAuthOptions["providers"] {
  const issuer = process.env.AUTH_OIDC_ISSUER;
  const clientId = process.env.AUTH_OIDC_CLIENT_ID;
  const clientSecret = process.env.AUTH_OIDC_CLIENT_SECRET;
  if (!issuer || !clientId || !clientSecret) return [];
  return [
    {
      id: "oidc",
      name: process.env.AUTH_OIDC_NAME || "Single sign-on",
      type: "oauth",
      wellKnown: `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
      clientId,
      clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      profile: (p: { sub: string; email?: string; name?: string }) => ({ id: p.sub, email: p.email, name: p.name }),
    },
  ];
}

export const oidcConfigured = () => oidcProvider().length > 0;

export const authOptions: NextAuthOptions = {
  // Read when a request needs it, not when the build imports this module.
  get secret() {
    return secrets().authSecret;
  },
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        // The address the same way as every request's (TCP peer, or what a trusted proxy forwarded).
        const ip = clientIp(new Headers((req?.headers ?? {}) as Record<string, string>));
        try {
          return await signInWithPassword(String(credentials?.email ?? ""), String(credentials?.password ?? ""), ip);
        } catch (e) {
          // next-auth hands a thrown message to the sign-in page as `error`.
          if (e instanceof SignInError) throw new Error(e.message);
          throw e;
        }
      },
    }),
    ...oidcProvider(),
  ],
  callbacks: {
    // SSO signs in only people who already belong to a team here (lib/auth/resolve-sso-user.ts).
    async signIn({ account, profile }) {
      if (account?.provider === "credentials") return true;
      if (!account) return "/sign-in?error=OAuthCallback";
      const resolved = await resolveSsoUser(
        account.provider,
        account.providerAccountId,
        profile as Record<string, unknown> | undefined,
      );
      return "userId" in resolved ? true : `/sign-in?error=${resolved.refused}`;
    },
    async jwt({ token, user, account }) {
      if (user && account) {
        const userId =
          account.provider === "credentials"
            ? user.id
            : (
                await db.ssoIdentity.findUnique({
                  where: { provider_subject: { provider: account.provider, subject: account.providerAccountId } },
                  select: { userId: true },
                })
              )?.userId;
        const row = userId
          ? await db.user.findUnique({ where: { id: userId }, select: { id: true, sessionEpoch: true } })
          : null;
        token.uid = row?.id;
        // The session's epoch: "sign out everywhere" raises the user's, which ends every session issued before.
        token.sv = row?.sessionEpoch ?? 0;
      }
      return token;
    },
    async session({ session, token }) {
      return {
        ...session,
        userId: token.uid as string | undefined,
        sessionEpoch: (token.sv as number | undefined) ?? 0,
      };
    },
    // After signing in (or out), only a path of this app: the same parse as the sign-in page's.
    async redirect({ url, baseUrl }) {
      const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) || "/" : url;
      return `${baseUrl}${sameOriginPath(path)}`;
    },
  },
};
