"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { undoSkipAction } from "@/app/annotate/actions";

/** Shown after a skip: what was skipped, and a way back to it while its slot is still free. */
export function SkipNotice({ debateId, claim, href }: { debateId: string; claim: string; href: string }) {
  const router = useRouter();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  return (
    <p
      role="status"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md bg-amber-50 p-2 text-sm text-amber-950"
      data-testid="skip-notice"
    >
      <span className="min-w-0 break-words">Skipped “{claim.length > 80 ? `${claim.slice(0, 80)}…` : claim}”.</span>
      <button
        type="button"
        className="rounded-md border border-amber-900/30 bg-white px-2 py-0.5 font-medium"
        disabled={state.busy}
        onClick={async () => {
          setState({ busy: true, error: null });
          try {
            const r = await undoSkipAction(debateId);
            if (r.ok) router.push(href);
            else setState({ busy: false, error: r.error });
          } catch {
            setState({ busy: false, error: "The server could not be reached; try again." });
          }
        }}
      >
        Undo skip
      </button>
      {state.error ? <span className="text-red-800">{state.error}</span> : null}
    </p>
  );
}
