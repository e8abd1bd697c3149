"use client";

import { Switch } from "@/components/ui/switch";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { setForbidSelfApproval, teamSettingsQuery, webhookKeys } from "@/lib/queries/webhooks";
import { detailText } from "@/components/overview/format";
import { ErrorNote, SkeletonBlock } from "@/components/overview/section-states";

const CONSEQUENCE_ON =
  "On: a member cannot approve a write they asked for (in their Agent conversation, or through their own MCP token); another member must approve it. They can still reject it. A request on a private connection can then only be rejected or left to expire, since only that connection's owner may decide it.";
const CONSEQUENCE_OFF =
  "Off: any member may approve any request, their own included (requests on a private connection are always decided by that connection's owner).";

/** Whether a member may approve their own write request: owners switch it, members see it. */
export function SelfApprovalSetting({ team, role }: { team: string; role: "owner" | "member" }) {
  const client = useQueryClient();
  const settings = useQuery(teamSettingsQuery(team));
  const save = useMutation({
    mutationFn: (forbid: boolean) => setForbidSelfApproval(team, forbid),
    onSuccess: ({ low_credits_percent, forbid_self_approval }) =>
      client.setQueryData(webhookKeys.teamSettings(team), { low_credits_percent, forbid_self_approval }),
  });

  if (settings.isPending) return <SkeletonBlock className="h-16" />;
  if (settings.isError)
    return <ErrorNote what="the approval rule" error={settings.error} onRetry={() => void settings.refetch()} />;
  const on = settings.data.forbid_self_approval;
  const consequence = (
    <p
      id="self-approval-consequence"
      className="text-sm text-zinc-600 dark:text-zinc-400"
      data-testid="self-approval-consequence"
    >
      {on ? CONSEQUENCE_ON : CONSEQUENCE_OFF}
    </p>
  );
  if (role !== "owner") {
    return (
      <div className="space-y-2">
        <p className="text-sm">
          Approving your own request:{" "}
          <strong data-testid="self-approval-state">{on ? "not allowed" : "allowed"}</strong>. Only team owners change
          it.
        </p>
        {consequence}
      </div>
    );
  }
  return (
    <div className="space-y-2">
      <label className="flex cursor-pointer items-center gap-3 text-sm">
        <Switch
          checked={on}
          disabled={save.isPending}
          onChange={(checked) => save.mutate(checked)}
          aria-describedby="self-approval-consequence"
        />
        <span className="font-medium">Require another member to approve a request</span>
      </label>
      {consequence}
      {save.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          Could not save the rule: {detailText(save.error)}
        </p>
      )}
    </div>
  );
}
