import { badRequest } from "@/lib/errors/api-error";

/** An email address as accounts are keyed by (trimmed, lower case), or a 400 saying what is wrong. */
export function normaliseEmail(input: string): string {
  const email = input.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
    throw badRequest(`${JSON.stringify(input)} is not an email address.`);
  return email;
}
