import { z } from "zod";
import { APPROVAL_STATUS_VALUES } from "@/lib/schemas/approval-statuses";

// The results of /mcp's tools whose answer has one shape, declared as their outputSchema
// (tools/list) and returned as structuredContent. The SDK checks every successful result against
// its schema and turns a mismatch into an error after the call has run and been logged, and a
// client that validates (the official one does) refuses a key the schema does not name: the tools
// build their results `satisfies` these types so the two cannot drift apart.

export const listConnectionsOutput = {
  connections: z
    .array(
      z.object({
        id: z.string(),
        type: z.string().describe("The connection type, e.g. ga4."),
        type_name: z.string(),
        display_name: z.string().nullable(),
        external_id: z.string().nullable().describe("The provider's id of the account, when known."),
        is_private: z.boolean(),
        tools: z.array(z.string()).describe("The direct tools that read from it."),
      }),
    )
    .describe("The connections this session may use."),
};

export const findOperationsOutput = {
  operations: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        description: z.string(),
        kind: z.enum(["read", "write"]),
        requires_approval: z.boolean(),
        credits: z.number(),
        connection_types: z.array(z.string()),
        connection_ids: z.array(z.string()).describe("This session's connections that can run it."),
      }),
    )
    .describe("Best match first."),
};

export const getOperationInputsOutput = {
  operation_id: z.string(),
  input_schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the input (connection_id is not in it)."),
  example: z.record(z.string(), z.unknown()),
};

export const getOperationResultOutput = {
  approval_id: z.string(),
  status: z.enum(APPROVAL_STATUS_VALUES),
  result: z.unknown().optional().describe("Once succeeded: what the write returned."),
  error: z.string().optional().describe("Once failed, rejected, expired or cancelled: why."),
};

type Shape<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;
export type ListConnectionsOutput = Shape<typeof listConnectionsOutput>;
export type FindOperationsOutput = Shape<typeof findOperationsOutput>;
export type GetOperationInputsOutput = Shape<typeof getOperationInputsOutput>;
export type GetOperationResultOutput = Shape<typeof getOperationResultOutput>;
