// The scopes the sandbox provider knows, with the words its own consent page shows for each
// (as a real provider describes its scopes). Without a scope in the authorize request, a grant
// gets sandbox.read only.

export const SANDBOX_SCOPES = {
  "sandbox.read": "Read your sandbox account's reports and its note",
  "sandbox.write": "Change your sandbox account's note",
} as const;

export type SandboxScope = keyof typeof SANDBOX_SCOPES;

const DEFAULT_SANDBOX_SCOPE: SandboxScope[] = ["sandbox.read"];

const isSandboxScope = (s: string): s is SandboxScope => Object.hasOwn(SANDBOX_SCOPES, s);

/** A space-separated scope text (RFC 6749 §3.3) → its known scopes, or the first unknown one. */
export function parseSandboxScope(text: string | null | undefined): { scopes: SandboxScope[] } | { unknown: string } {
  const names = [...new Set((text ?? "").split(" ").filter(Boolean))];
  const unknown = names.find((n) => !isSandboxScope(n));
  if (unknown !== undefined) return { unknown };
  const scopes = names.filter(isSandboxScope);
  return { scopes: scopes.length ? scopes : DEFAULT_SANDBOX_SCOPE };
}
