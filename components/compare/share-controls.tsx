"use client";

import { createComparisonShareAction, revokeComparisonShareAction } from "@/app/compare/actions";
import { ShareLinks, type ShareLink } from "@/components/debate/share-controls";

/** Read-only links to the whole comparison (every method's debate streams on it), as a debate's share links. */
export function CompareShareControls({ comparisonId, tokens, base }: { comparisonId: string; tokens: ShareLink[]; base?: string | null }) {
  return (
    <ShareLinks
      field="comparisonId"
      id={comparisonId}
      path="/share/compare/"
      tokens={tokens}
      base={base}
      create={createComparisonShareAction}
      revoke={revokeComparisonShareAction}
      summary="Share a read-only link to this comparison"
      testId="compare-share-controls"
      linkTestId="compare-share-link"
    />
  );
}
