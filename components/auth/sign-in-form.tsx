"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";

const ERRORS: Record<string, string> = {
  NotAMember: "That account is not a member of any team here. Ask a team owner to invite you.",
  EmailNotVerified:
    "Your single sign-on provider has not verified your email address, so it cannot be matched to an account here. Verify it with your provider, or sign in with your password.",
  InvitePasswordUnproven:
    "This account's password was chosen on an invite page. Sign in once with that password; single sign-on works for this account after that.",
  NoEmail: "Your single sign-on account has no email address.",
  OAuthSignin: "Single sign-on could not start. Try again.",
  OAuthCallback: "Single sign-on did not complete. Try again.",
  SessionRequired: "Sign in to continue.",
};

export function SignInForm({
  callbackUrl,
  initialError,
  sso,
}: {
  callbackUrl: string;
  initialError?: string;
  sso?: string;
}) {
  const [error, setError] = useState(initialError ? (ERRORS[initialError] ?? initialError) : "");
  const [pending, setPending] = useState(false);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError("");
    // signIn rejects when the request fails (offline, server down): say so instead of leaving the form pending.
    const res = await signIn("credentials", {
      email: String(form.get("email")),
      password: String(form.get("password")),
      redirect: false,
    }).catch(() => null);
    if (res?.ok && !res.error) {
      // One document load of the destination, read with the new session from the start (the
      // server sends "/" on to the first team in the same response). A client-side replace and
      // then a refresh made two navigations, and on a slow machine the second one landed after
      // the person had already gone on to another page, taking them back.
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    if (res === null) return setError("The server could not be reached; try again.");
    setError(res?.error === "CredentialsSignin" || !res?.error ? "Wrong email or password." : res.error);
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
      {error && <Alert>{error}</Alert>}
      <label className="block text-sm">
        <span className="font-medium">Email</span>
        <input name="email" type="email" autoComplete="email" required className="input mt-1" />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Password</span>
        <input name="password" type="password" autoComplete="current-password" required className="input mt-1" />
      </label>
      <button type="submit" disabled={pending} className="btn-primary w-full">
        {pending ? "Signing in…" : "Sign in"}
      </button>
      {sso && (
        <button type="button" onClick={() => void signIn("oidc", { callbackUrl })} className="btn-secondary w-full">
          Continue with {sso}
        </button>
      )}
    </form>
  );
}
