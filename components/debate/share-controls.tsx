import { createShareAction, revokeShareAction } from "@/app/debates/share-actions";

/** Read-only links for people without an account, e.g. an editor outside the newsroom. */
export function ShareControls({ debateId, tokens }: { debateId: string; tokens: string[] }) {
  return (
    <details className="text-sm" data-testid="share-controls">
      <summary className="cursor-pointer text-black/70">Share a read-only link{tokens.length ? ` (${tokens.length} active)` : ""}</summary>
      <div className="mt-2 space-y-2">
        {tokens.map((t) => (
          <form key={t} action={revokeShareAction} className="flex flex-wrap items-center gap-2">
            <input type="hidden" name="token" value={t} />
            <input type="hidden" name="debateId" value={debateId} />
            <code data-testid="share-link" className="break-all rounded bg-black/5 px-1.5 py-0.5">{`/share/${t}`}</code>
            <button type="submit" className="text-red-800 underline">
              Revoke
            </button>
          </form>
        ))}
        <form action={createShareAction}>
          <input type="hidden" name="debateId" value={debateId} />
          <button type="submit" className="rounded-md border border-black/20 bg-white px-3 py-1 hover:bg-black/5">
            Create a link
          </button>
        </form>
      </div>
    </details>
  );
}
