"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";

/** Accepting an invite without an account: choose a password, join, and be signed in. */
export function NewAccountForm({
  token,
  email,
  team,
}: {
  token: string;
  email: string;
  team: { id: string; name: string };
}) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password"));
    if (password !== String(form.get("confirm"))) return setError("The two passwords are not the same.");
    setPending(true);
    setError("");
    const res = await fetch(`/invite/${encodeURIComponent(token)}/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password, name: String(form.get("name") ?? "").trim() || undefined }),
    }).catch(() => null);
    if (!res?.ok) {
      const body = (await res?.json().catch(() => null)) as { detail?: unknown } | null;
      setPending(false);
      return setError(
        typeof body?.detail === "string"
          ? body.detail
          : res
            ? `The server answered ${res.status}.`
            : "The server could not be reached; try again.",
      );
    }
    // The account exists by now: if signing in fails, even by a rejected request, the sign-in page is where to go.
    const signedIn = await signIn("credentials", { email, password, redirect: false }).catch(() => null);
    if (signedIn?.ok && !signedIn.error) {
      router.replace(`/${team.id}`);
      router.refresh();
    } else {
      router.replace(`/sign-in?callbackUrl=${encodeURIComponent(`/${team.id}`)}`);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="mt-6 space-y-4" noValidate>
      {error && <Alert>{error}</Alert>}
      <label className="block text-sm">
        <span className="font-medium">Email</span>
        <input value={email} readOnly autoComplete="username" className="input mt-1 bg-zinc-50 dark:bg-zinc-950" />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Your name (optional)</span>
        <input name="name" autoComplete="name" maxLength={100} className="input mt-1" />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Choose a password</span>
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          className="input mt-1"
        />
        <span className="mt-1 block text-xs text-zinc-500 dark:text-zinc-400">At least 8 characters.</span>
      </label>
      <label className="block text-sm">
        <span className="font-medium">Repeat the password</span>
        <input
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          className="input mt-1"
        />
      </label>
      <button type="submit" disabled={pending} className="btn-primary w-full">
        {pending ? "Creating your account…" : `Create account and join ${team.name}`}
      </button>
    </form>
  );
}
