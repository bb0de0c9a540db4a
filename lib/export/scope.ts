import type { Database } from "@/db/client";
import type { Principal } from "@/lib/auth/policy";
import { runVisibility, viewerPolicy, type ViewerPolicy } from "@/lib/auth/visibility";

/*
 * What a download may carry for the person asking: the visibility policy (lib/auth/visibility.ts)
 * applied to many debates at once. The CLI runs as the server's operator and exports everything.
 *
 *   - /api/export, /compare/<id>/export: for someone who labels, while the verdict or others'
 *     labels are hidden from them, only debates settled for them (labelled by them, or overlap
 *     met), with those debates' labels; the datasets' gold and native labels are left out while
 *     blind mode is on. Signed out (a public newsroom): no annotations, so nobody learns who
 *     labelled what.
 *   - /eval/<id>/export: nothing while the policy hides gold labels or verdicts (it is gold
 *     labels and per-claim results); refused with 403.
 */

export type LabelScope =
  | { blind: false; anonymous?: boolean }
  | { blind: true; annotatorId: string; overlap: number; hideGold: boolean };

export const EVERYTHING: LabelScope = { blind: false };

export function scopeFrom(p: ViewerPolicy): LabelScope {
  const v = runVisibility(p);
  if (v.verdict && v.otherLabels && v.goldLabels) return { blind: false, anonymous: !v.people };
  return { blind: true, annotatorId: p.viewerId!, overlap: p.overlap, hideGold: !v.goldLabels };
}

export async function labelScopeFor(db: Database, principal: Principal | null): Promise<LabelScope> {
  return scopeFrom(await viewerPolicy(db, principal));
}

/** Whether an evaluation report (gold labels and per-claim verdicts) may go to this person. */
export async function evalReportAllowed(db: Database, principal: Principal | null): Promise<boolean> {
  const v = runVisibility(await viewerPolicy(db, principal));
  return v.verdict && v.goldLabels;
}

export const BLIND_EVAL_REFUSAL =
  "Evaluation reports (gold labels and per-claim verdicts) are for fact-checkers and admins while blind annotation is on or the AI verdict is hidden before labelling. Ask an admin to change those settings, or for someone without the annotator role to download it.";
