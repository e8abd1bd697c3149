import { sandboxEnabledOr404 } from "@/lib/providers/sandbox/sandbox-enabled";
import { sandboxReport } from "@/lib/providers/sandbox/sandbox-server";

export const GET = sandboxEnabledOr404(sandboxReport);
