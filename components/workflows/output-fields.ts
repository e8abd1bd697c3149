import type { CatalogueOperation } from "@/lib/queries/operations";

// What a node's condition and loop can pick from: the fields of earlier nodes' outputs, read from
// each operation's output_schema (JSON Schema, as MCP's outputSchema serves it), and in a loop the
// fields of the current item. Pure: the editor's pickers, the preview and the references list
// share it.

/** The part of JSON Schema an output_schema uses. */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
};

/** A value's kind as the pickers need it: what a comparison can do with it, whether it can be looped over. */
export type ValueKind = "number" | "string" | "boolean" | "list" | "object" | "any";

/** One field a condition or a loop can use: its reference (without braces), a name a person reads, its kind. */
export type PickableField = {
  ref: string;
  /** The field's description as its name ("Total sessions"), else its path. */
  name: string;
  /** Where it is, for the picker's second line: "report · total", "each row · value". */
  where: string;
  kind: ValueKind;
  /** A list's item shape, when it is known: what a loop over it offers as {{item.…}}. */
  items?: JsonSchema | null;
  /** The group the picker lists it under: a node's label, or "This node's row". */
  group: string;
};

const MAX_DEPTH = 3;

/** The schema without its nullability: `anyOf: [X, {type: null}]` and `type: [X, "null"]` read as X. */
function unwrap(schema: JsonSchema): JsonSchema {
  const members = schema.anyOf ?? schema.oneOf;
  if (members) {
    const real = members.filter((m) => m.type !== "null");
    if (real.length === 1) return { ...unwrap(real[0]), description: schema.description ?? real[0].description };
    return schema;
  }
  if (Array.isArray(schema.type)) {
    const real = schema.type.filter((t) => t !== "null");
    return { ...schema, type: real.length === 1 ? real[0] : real };
  }
  return schema;
}

export function kindOf(schema: JsonSchema | null | undefined): ValueKind {
  if (!schema) return "any";
  const s = unwrap(schema);
  if (s.enum && s.enum.every((v) => typeof v === "string")) return "string";
  switch (s.type) {
    case "number":
    case "integer":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "array":
      return "list";
    case "object":
      return "object";
    default:
      return "any";
  }
}

/**
 * A field's name from its description: the first sentence, without its full stop, short enough
 * for a picker ("Total sessions"); its path when it has no description.
 */
function nameFromDescription(description: string | undefined, path: string): string {
  const first = description
    ?.trim()
    .split(/(?<=[.!?])\s+/)[0]
    ?.replace(/[.:;]$/, "");
  if (!first) return path;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

/**
 * Every field of an object schema, nested objects' fields too (paths `a.b`), each with its kind;
 * lists are fields themselves (their rows are reached through a loop, not by index). `ref` and
 * `where` are the field's path under `refPrefix` and `wherePrefix`.
 */
function schemaFields(
  schema: JsonSchema | null | undefined,
  refPrefix: string,
  group: string,
  wherePrefix: string,
  path: string[] = [],
): PickableField[] {
  if (!schema) return [];
  const s = unwrap(schema);
  if (kindOf(s) !== "object" || !s.properties) return [];
  return Object.entries(s.properties).flatMap(([key, raw]) => {
    const child = unwrap(raw);
    const at = [...path, key];
    const kind = kindOf(child);
    const field: PickableField = {
      ref: [refPrefix, ...at].filter(Boolean).join("."),
      name: nameFromDescription(child.description ?? child.title, at.join(".")),
      where: `${wherePrefix} · ${at.join(".")}`,
      kind,
      group,
      ...(kind === "list" && { items: child.items ?? null }),
    };
    const nested =
      kind === "object" && at.length < MAX_DEPTH ? schemaFields(child, refPrefix, group, wherePrefix, at) : [];
    return [field, ...nested];
  });
}

/** An earlier node as the pickers see it: its id, its label, its operation, whether it loops. */
export type EarlierNode = { id: string; label: string; operation_id: string; loops: boolean };

/**
 * The fields of an earlier node's output. A node that loops outputs the list of its rows'
 * outputs: that list is its one field, whose items have the operation's output shape.
 */
export function nodeOutputFields(node: EarlierNode, op: CatalogueOperation | undefined): PickableField[] {
  if (!node.id) return [];
  const group = node.label.trim() || node.id;
  const schema = (op?.output_schema ?? null) as JsonSchema | null;
  const base = `nodes.${node.id}.output`;
  if (node.loops)
    return [
      {
        ref: base,
        name: `The results of ${group}, one per row`,
        where: `${node.id} · output`,
        kind: "list",
        items: schema,
        group,
      },
    ];
  return schemaFields(schema, base, group, node.id);
}

/** The group name of the current row's fields in the pickers. */
const ITEM_GROUP = "Each row of the loop";

/** In a loop: the current row's fields ({{item.…}}), the row itself when it is a plain value, and its position. */
export function itemFields(items: JsonSchema | null | undefined): PickableField[] {
  const fields = schemaFields(items, "item", ITEM_GROUP, "row");
  const kind = kindOf(items);
  const whole: PickableField[] =
    kind === "object" && fields.length ? [] : [{ ref: "item", name: "The row", where: "row", kind, group: ITEM_GROUP }];
  return [
    ...whole,
    ...fields,
    {
      ref: "item_index",
      name: "The row's position (0 for the first)",
      where: "row · position",
      kind: "number",
      group: ITEM_GROUP,
    },
  ];
}

/** The {{…}} text of a field's reference. */
export const referenceText = (ref: string) => `{{${ref}}}`;

/** The reference a {{…}} text is made of, or null when it is not exactly one. */
export const referenceOf = (text: string) => /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(text.trim())?.[1] ?? null;
