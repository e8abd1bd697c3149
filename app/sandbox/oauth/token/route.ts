import { sandboxEnabledOr404 } from "@/lib/providers/sandbox/sandbox-enabled";
import { sandboxToken } from "@/lib/providers/sandbox/sandbox-server";

export const POST = sandboxEnabledOr404(sandboxToken);
