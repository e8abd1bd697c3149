import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current-user";
import { SignOutButton } from "@/components/shell/sign-out-button";

export const dynamic = "force-dynamic";

export default async function Home() {
  const user = await currentUser();
  if (user?.teams.length) redirect(`/${user.teams[0].id}`);
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Patchbay</h1>
      <p className="mt-3 text-zinc-600 dark:text-zinc-400">
        Connections between your workspace and your customers&apos; accounts, the operation logs of your workflows, MCP
        servers and agents, and your credit balance — in one API.
      </p>
      {user ? (
        <div className="card mt-6 p-4 text-sm" data-testid="no-team">
          <p>
            You are signed in as <strong>{user.email}</strong> but are not a member of any team. Ask a team owner for an
            invite link.
          </p>
          <SignOutButton className="btn-secondary mt-3" />
        </div>
      ) : (
        <p className="mt-6">
          <Link className="btn-primary" href="/sign-in">
            Sign in
          </Link>
        </p>
      )}
      <ul className="mt-8 space-y-2">
        <li>
          <Link
            className="font-medium text-indigo-600 underline-offset-4 hover:underline dark:text-indigo-400"
            href="/docs/api"
          >
            API reference
          </Link>
        </li>
        <li>
          <Link
            className="font-medium text-indigo-600 underline-offset-4 hover:underline dark:text-indigo-400"
            href="/docs/webhooks"
          >
            Webhooks: events, signatures and retries
          </Link>
        </li>
        <li>
          <Link
            className="font-medium text-indigo-600 underline-offset-4 hover:underline dark:text-indigo-400"
            href="/docs/operations"
          >
            Operations and approvals: what agents can read and write
          </Link>
        </li>
        <li>
          <Link
            className="font-medium text-indigo-600 underline-offset-4 hover:underline dark:text-indigo-400"
            href="/docs/workflows"
          >
            Workflows: operations run in order, by hand or on a schedule
          </Link>
        </li>
        <li>
          <a
            className="font-medium text-indigo-600 underline-offset-4 hover:underline dark:text-indigo-400"
            href="/v1/openapi.json"
          >
            OpenAPI 3.1 document
          </a>
        </li>
      </ul>
    </main>
  );
}
