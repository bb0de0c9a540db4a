"use client";

import { useActionState } from "react";
import { Outcome, SubmitButton } from "@/components/ui/button";
import { cancelDebateAction, resumeDebateAction, type ControlState } from "@/app/debates/[id]/actions";

/** Stop while it runs; resume from the last finished turn once it stopped, failed or was interrupted. */
export function DebateControls({ id, status }: { id: string; status: string }) {
  const [stopState, stop, stopping] = useActionState<ControlState, FormData>(cancelDebateAction, {});
  const [resumeState, resume, resuming] = useActionState<ControlState, FormData>(resumeDebateAction, {});
  const error = resumeState.error ?? stopState.error;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {status === "running" || status === "queued" ? (
          <form action={stop}>
            <input type="hidden" name="id" value={id} />
            <SubmitButton pending={stopping} busy="Stopping…" look="secondary">
              Stop debate
            </SubmitButton>
          </form>
        ) : null}
        {status === "interrupted" || status === "failed" || status === "cancelled" ? (
          <form action={resume}>
            <input type="hidden" name="id" value={id} />
            <SubmitButton pending={resuming} busy="Resuming…">
              Resume from the last finished turn
            </SubmitButton>
          </form>
        ) : null}
      </div>
      <Outcome state={{ error }} errorClassName="text-sm text-red-900" />
    </div>
  );
}
