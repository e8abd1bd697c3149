import "server-only";
import { operationsForType } from "@/lib/operations/registry";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import type { ConnectionTypeDefinition, OAuthScope } from "@/lib/platforms/kit/types";

/**
 * What a connection of a type lets Patchbay do with the account, as its owner reads it before
 * connecting (the hosted connect page) and as the type's docs page lists it. Derived, never
 * written per type: `reads` is the identity call's line and the phrases of the catalogue's reads
 * on the type, `writes` the phrases of its writes, each deduplicated in catalogue order;
 * `scopes` is what the type asks the provider for, with what each allows.
 */
export type ConsentText = {
  reads: string[];
  writes: string[];
  scopes: readonly OAuthScope[];
  /** The provider grants the permissions set on Patchbay's app; the scopes are named nowhere in the request. */
  scopesSetOnApp: boolean;
};

const phrases = (ops: Operation[], kind: Operation["kind"]) =>
  ops.filter((op) => op.kind === kind).map((op) => op.consent ?? "");

const unique = (lines: string[]) => [...new Set(lines.map((l) => l.trim()).filter(Boolean))];

export function consentTextFor(def: ConnectionTypeDefinition): ConsentText {
  const ops = operationsForType(def.type);
  return {
    reads: unique([def.oauth?.identity ?? "", ...phrases(ops, "read")]),
    writes: unique(phrases(ops, "write")),
    scopes: def.oauth?.scopes ?? [],
    scopesSetOnApp: def.oauth?.scopesSetOnApp ?? false,
  };
}

/** The consent text as a markdown section, appended to the type's docs page. */
export function consentMarkdown(def: ConnectionTypeDefinition): string {
  const text = consentTextFor(def);
  const list = (lines: string[]) => lines.map((l) => `- ${l}`).join("\n");
  const parts = [
    `## What Patchbay can do with this connection`,
    "",
    "Generated from the operations Patchbay runs on this type and the scopes it asks for.",
    "",
  ];
  if (text.reads.length) parts.push("**Can read**", "", list(text.reads), "");
  if (text.writes.length) parts.push("**Can change**", "", list(text.writes), "");
  if (text.scopes.length) {
    const provider = def.oauth?.providerName ?? def.name;
    parts.push(
      text.scopesSetOnApp
        ? `**Permissions set on Patchbay's ${provider} app** (an auth link grants these)`
        : `**Scopes an auth link asks ${provider} for**`,
      "",
      text.scopes.map((s) => `- \`${s.name}\`${s.changes ? " (can change things)" : ""}: ${s.allows}`).join("\n"),
      "",
    );
  }
  return parts.join("\n");
}
