import { sandboxEnabledOr404 } from "@/lib/platforms/sandbox/sandbox-enabled";
import { sandboxSetNote } from "@/lib/platforms/sandbox/sandbox-server";

export const POST = sandboxEnabledOr404(sandboxSetNote);
