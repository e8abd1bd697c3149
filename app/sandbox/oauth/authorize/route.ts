import { sandboxEnabledOr404 } from "@/lib/platforms/sandbox/sandbox-enabled";
import { sandboxAuthorizeDecision, sandboxAuthorizePage } from "@/lib/platforms/sandbox/sandbox-authorize";

export const GET = sandboxEnabledOr404(sandboxAuthorizePage);
export const POST = sandboxEnabledOr404(sandboxAuthorizeDecision);
