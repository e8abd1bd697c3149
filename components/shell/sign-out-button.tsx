"use client";

import { signOut } from "next-auth/react";

export function SignOutButton({
  callbackUrl = "/sign-in",
  label = "Sign out",
  className,
}: {
  callbackUrl?: string;
  label?: string;
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={() => void signOut({ callbackUrl })}
      className={
        className ??
        "whitespace-nowrap text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
      }
    >
      {label}
    </button>
  );
}
