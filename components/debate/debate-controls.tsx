import { cancelDebateAction, resumeDebateAction } from "@/app/debates/actions";

export function DebateControls({ id, status }: { id: string; status: string }) {
  return (
    <div className="flex flex-wrap gap-2">
      {status === "running" || status === "queued" ? (
        <form action={cancelDebateAction}>
          <input type="hidden" name="id" value={id} />
          <button type="submit" className="rounded-md border border-black/20 bg-white px-3 py-1.5 text-sm font-medium hover:bg-black/5">
            Stop debate
          </button>
        </form>
      ) : null}
      {status === "interrupted" || status === "failed" ? (
        <form action={resumeDebateAction}>
          <input type="hidden" name="id" value={id} />
          <button type="submit" className="rounded-md bg-ink px-3 py-1.5 text-sm font-medium text-white hover:bg-black">
            Resume from the last finished turn
          </button>
        </form>
      ) : null}
    </div>
  );
}
