import { sandboxEnabledOr404 } from "@/lib/platforms/sandbox/sandbox-enabled";
import { sandboxMe } from "@/lib/platforms/sandbox/sandbox-server";

export const GET = sandboxEnabledOr404(sandboxMe);
