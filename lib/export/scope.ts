import type { Database } from "@/db/client";
import { getSettings } from "@/db/queries/settings";
import type { Principal } from "@/lib/auth/policy";

/*
 * What a download may carry for the person asking, under blind annotation. It is the rule the
 * labelling pages already apply (db/queries/annotations.ts visibleAnnotations, and
 * lib/annotation/blind.ts for statistics): someone who labels, while blind mode is on, sees other
 * people's labels only on debates they have labelled themselves or whose overlap target is met
 * (the queue will never hand them those), and never the dataset's gold labels, which are the
 * answers they are asked to give. Admins and fact-checkers without the annotator role are not
 * labelling and see everything; so does the CLI, which runs as the server's operator.
 *
 * What an annotator may export in blind mode:
 *   - /api/export (JSONL, CSV, ClaimReview): the debates they have labelled and the complete ones,
 *     with those debates' labels; the claim's dataset gold and native labels left out.
 *   - /eval/<id>/export: nothing (it is gold labels and per-claim results); refused with 403.
 */

export type LabelScope = { blind: false } | { blind: true; annotatorId: string; overlap: number };

export const EVERYTHING: LabelScope = { blind: false };

/** Whether blind annotation restricts this person: they label, and are not an admin. */
export function labelsBlindFor(principal: Principal | null, blindSetting: boolean): principal is Principal {
  return !!principal && blindSetting && principal.roles.includes("annotator") && !principal.roles.includes("admin");
}

export async function labelScopeFor(db: Database, principal: Principal | null): Promise<LabelScope> {
  const settings = await getSettings(db);
  if (!labelsBlindFor(principal, settings.blind_annotation)) return EVERYTHING;
  return { blind: true, annotatorId: principal.id, overlap: settings.annotation_overlap };
}

export const BLIND_EVAL_REFUSAL =
  "Blind annotation is on, so evaluation reports (gold labels and per-claim results) are for fact-checkers and admins only. Ask an admin to turn blind annotation off, or for someone without the annotator role to download it.";
