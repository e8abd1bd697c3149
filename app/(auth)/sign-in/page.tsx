import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current-user";
import { oidcConfigured } from "@/lib/auth/auth-options";
import { SignInForm } from "@/components/auth/sign-in-form";
import { sameOriginPath } from "@/lib/auth/same-origin-path";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Patchbay" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  const q = await searchParams;
  // Only a path of this app, as the browser will parse it (lib/auth/same-origin-path.ts).
  const callbackUrl = sameOriginPath(q.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  return (
    <main className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 py-16 sm:items-center dark:bg-zinc-950">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2">
          {/* eslint-disable-next-line @next/next/no-img-element -- a 1 KB SVG: nothing to optimise */}
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span className="text-lg font-semibold tracking-tight">Patchbay</span>
        </div>
        <div className="card p-6">
          <h1 className="mb-4 text-xl font-semibold tracking-tight">Sign in to your team</h1>
          <SignInForm
            callbackUrl={callbackUrl}
            initialError={typeof q.error === "string" ? q.error : undefined}
            sso={oidcConfigured() ? process.env.AUTH_OIDC_NAME || "single sign-on" : undefined}
          />
        </div>
      </div>
    </main>
  );
}
