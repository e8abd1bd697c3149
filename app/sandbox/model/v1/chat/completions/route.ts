import { sandboxEnabledOr404 } from "@/lib/platforms/sandbox/sandbox-enabled";
import { sandboxChatCompletions } from "@/lib/platforms/sandbox/sandbox-model";

export const POST = sandboxEnabledOr404(sandboxChatCompletions);
