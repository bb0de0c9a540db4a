"use client";

import { createComparisonShareAction, revokeComparisonShareAction } from "@/app/compare/actions";
import { ShareLinks, type ShareLink } from "@/components/debate/share-controls";

/** Read-only links to the whole comparison (every method's debate streams on it), as a debate's share links. */
export function CompareShareControls({
  comparisonId,
  shares,
  base,
}: {
  comparisonId: string;
  shares: Array<ShareLink & { transcripts: boolean }>;
  base?: string | null;
}) {
  return (
    <ShareLinks
      field="comparisonId"
      id={comparisonId}
      path="/share/compare/"
      tokens={shares.map(({ token, revocable }) => ({ token, revocable }))}
      base={base}
      notes={Object.fromEntries(
        shares.map((s) => [s.token, s.transcripts ? "with each method's transcript" : "verdicts and reasons only"]),
      )}
      createOptions={
        <label className="flex items-start gap-2">
          <input type="checkbox" name="transcripts" className="mt-1" />
          <span>
            Let the link&apos;s holders read each method&apos;s full transcript too (every turn and the evidence), not
            only the verdicts and reasons
          </span>
        </label>
      }
      create={createComparisonShareAction}
      revoke={revokeComparisonShareAction}
      summary="Share a read-only link to this comparison"
      testId="compare-share-controls"
      linkTestId="compare-share-link"
    />
  );
}
