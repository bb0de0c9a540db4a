"use client";

import { useActionState } from "react";
import { closeLiveAction, type LiveFormState } from "@/app/live/actions";

/** "Close the session": asks first, because a closed session takes no more lines. */
export function CloseSessionForm({ sessionId }: { sessionId: string }) {
  const [state, action, pending] = useActionState<LiveFormState, FormData>(closeLiveAction, {});
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!window.confirm("Close this session? It will take no more lines; the board stays as its archive."))
          e.preventDefault();
      }}
      className="inline"
    >
      <input type="hidden" name="sessionId" value={sessionId} />
      <button disabled={pending} className="rounded border border-black/40 px-2 py-1 text-sm disabled:opacity-50">
        Close the session
      </button>
      {state.error && (
        <p role="alert" className="text-sm text-red-800">
          {state.error}
        </p>
      )}
    </form>
  );
}
