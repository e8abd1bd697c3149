import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "@/lib/db/client";
import { appUrl, secrets } from "@/lib/config/env";
import { SignInError, signInWithPassword } from "@/lib/auth/sign-in-with-password";

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
        const forwarded = String((req?.headers as Record<string, string> | undefined)?.["x-forwarded-for"] ?? "").split(",")[0].trim();
        try {
          return await signInWithPassword(String(credentials?.email ?? ""), String(credentials?.password ?? ""), forwarded || "local");
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
    // SSO signs in only people who already belong to a team here (matched by email).
    async signIn({ user, account }) {
      if (account?.provider === "credentials") return true;
      const email = user.email?.toLowerCase();
      if (!email) return "/sign-in?error=NoEmail";
      const known = await db.user.findUnique({ where: { email }, select: { id: true } });
      return known ? true : "/sign-in?error=NotAMember";
    },
    async jwt({ token, user, account }) {
      if (user && account) {
        const email = (user.email ?? "").toLowerCase();
        const row = account.provider === "credentials" ? { id: user.id } : await db.user.findUnique({ where: { email }, select: { id: true } });
        token.uid = row?.id;
      }
      return token;
    },
    async session({ session, token }) {
      return { ...session, userId: token.uid as string | undefined };
    },
  },
};
