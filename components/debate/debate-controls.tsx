"use client";

import { useActionState } from "react";
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
            <button
              type="submit"
              disabled={stopping}
              className="rounded-md border border-black/20 bg-white px-3 py-1.5 text-sm font-medium hover:bg-black/5 disabled:opacity-60"
            >
              {stopping ? "Stopping…" : "Stop debate"}
            </button>
          </form>
        ) : null}
        {status === "interrupted" || status === "failed" || status === "cancelled" ? (
          <form action={resume}>
            <input type="hidden" name="id" value={id} />
            <button
              type="submit"
              disabled={resuming}
              className="rounded-md bg-ink px-3 py-1.5 text-sm font-medium text-white hover:bg-black disabled:opacity-60"
            >
              {resuming ? "Resuming…" : "Resume from the last finished turn"}
            </button>
          </form>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-900">
          {error}
        </p>
      ) : null}
    </div>
  );
}
