import { sandboxEnabledOr404 } from "@/lib/providers/sandbox/sandbox-enabled";
import { sandboxAuthorizeDecision, sandboxAuthorizePage } from "@/lib/providers/sandbox/sandbox-authorize";

export const GET = sandboxEnabledOr404(sandboxAuthorizePage);
export const POST = sandboxEnabledOr404(sandboxAuthorizeDecision);
