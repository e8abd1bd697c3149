import { sandboxEnabledOr404 } from "@/lib/providers/sandbox/sandbox-enabled";
import { sandboxSetNote } from "@/lib/providers/sandbox/sandbox-server";

export const POST = sandboxEnabledOr404(sandboxSetNote);
