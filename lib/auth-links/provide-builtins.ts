import "server-only";
import { provideBuiltins } from "@/lib/platforms/kit/builtin-services";
import { createAuthLink } from "@/lib/auth-links/create-auth-link";
import type { Principal } from "@/lib/api-keys/authenticate-api-key";

/** Gives the built-in operations (patchbay.*) what they act with; called where workflows run. */
export function provideWorkflowBuiltins() {
  provideBuiltins({
    createAuthLink: (scope, body) =>
      createAuthLink({ team: { id: scope.teamId }, user: { id: scope.userId } } as Principal, {
        ...body,
        is_private: false,
      }),
  });
}
