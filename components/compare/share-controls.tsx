"use client";

import { createComparisonShareAction, revokeComparisonShareAction } from "@/app/compare/actions";
import { CopyButton, useOrigin } from "@/components/debate/share-controls";

/** Read-only links to the whole comparison (every method's debate streams on it), as a debate's share links. */
export function CompareShareControls({ comparisonId, tokens }: { comparisonId: string; tokens: string[] }) {
  const origin = useOrigin();
  return (
    <details className="text-sm" data-testid="compare-share-controls">
      <summary className="cursor-pointer text-black/70">Share a read-only link to this comparison{tokens.length ? ` (${tokens.length} active)` : ""}</summary>
      <div className="mt-2 space-y-2">
        {tokens.map((t) => {
          const url = `${origin}/share/compare/${t}`;
          return (
            <form key={t} action={revokeComparisonShareAction} className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="token" value={t} />
              <input type="hidden" name="comparisonId" value={comparisonId} />
              <code data-testid="compare-share-link" className="min-w-0 break-all rounded bg-black/5 px-1.5 py-0.5">
                {url}
              </code>
              <CopyButton text={url} />
              <button type="submit" className="text-red-800 underline">
                Revoke
              </button>
            </form>
          );
        })}
        <form action={createComparisonShareAction}>
          <input type="hidden" name="comparisonId" value={comparisonId} />
          <button type="submit" className="rounded-md border border-black/20 bg-white px-3 py-1 hover:bg-black/5">
            Create a link
          </button>
        </form>
      </div>
    </details>
  );
}
