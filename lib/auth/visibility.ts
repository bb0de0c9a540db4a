import { and, eq, sql } from "drizzle-orm";
import { anyUuid } from "@/db/bulk";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { getSettings, type Settings } from "@/db/queries/settings";
import { currentAnnotations } from "@/db/queries/annotations";
import type { Principal } from "./policy";

/*
 * The one visibility policy: what a viewer may see of a debate. Every surface that shows a debate,
 * a run of debates or a download of them asks `debateVisibility` (directly, or through
 * `visibilityOf` / `runVisibility` / the export scope), so the rule lives here only.
 *
 * Someone who labels (the annotator role, without admin) is checking the judge, so while they
 * could still be asked to label a debate they must not see:
 *   - the judge's verdict, reasoning, scores and checkpoints, unless an admin turned on "show the
 *     AI verdict before labelling" (show_verdict_before_label);
 *   - with blind annotation on: other annotators' labels, and the datasets' gold labels and every
 *     accuracy computed from them (they are the answers).
 * A debate is settled for them once they have labelled it or its overlap target is met (the
 * queue will never hand it to them): the verdict and others' labels are shown then; gold labels
 * stay hidden while blind mode is on. Everyone else (admins, fact-checkers, journalists, people
 * with a share link) sees the debate whole, except that nobody signed out sees who labelled it.
 */

export type DebateVisibility = {
  /**
   * The judge's verdict and reason, its scoring turns, checkpoints, and anything derived (ensembles,
   * agreement); also the ratings of earlier checks the claim matched before the start, shown or
   * attached as evidence (lib/annotation/judge-reveal.ts takes them out).
   */
  verdict: boolean;
  /** Datasets' gold and native labels, and accuracy or other scores computed against them. */
  goldLabels: boolean;
  /** Other annotators' labels. */
  otherLabels: boolean;
  /** Who labelled (annotators' addresses) and other account identities. */
  people: boolean;
};

export type ViewerPolicy = {
  viewerId: string | null;
  /** Labels debates now: annotator, not admin. */
  labelling: boolean;
  blind: boolean;
  verdictBeforeLabel: boolean;
  overlap: number;
};

export function viewerPolicyFrom(
  principal: Principal | null,
  settings: Pick<Settings, "blind_annotation" | "show_verdict_before_label" | "annotation_overlap">,
): ViewerPolicy {
  return {
    viewerId: principal?.id ?? null,
    labelling: !!principal && principal.roles.includes("annotator") && !principal.roles.includes("admin"),
    blind: settings.blind_annotation,
    verdictBeforeLabel: settings.show_verdict_before_label,
    overlap: settings.annotation_overlap,
  };
}

export async function viewerPolicy(db: Database, principal: Principal | null): Promise<ViewerPolicy> {
  return viewerPolicyFrom(principal, await getSettings(db));
}

/** THE rule. `settled`: the viewer has labelled the debate, or its overlap target is met. */
export function debateVisibility(p: ViewerPolicy, settled: boolean): DebateVisibility {
  if (!p.labelling) return { verdict: true, goldLabels: true, otherLabels: true, people: p.viewerId !== null };
  return {
    verdict: p.verdictBeforeLabel || settled,
    goldLabels: !p.blind,
    otherLabels: !p.blind || settled,
    people: true,
  };
}

/** Whether every part of a debate is visible to this viewer whatever its labels (then no per-debate lookup is needed). */
export function seesEverything(p: ViewerPolicy): boolean {
  const v = debateVisibility(p, false);
  return v.verdict && v.goldLabels && v.otherLabels;
}

/**
 * A run, group or list of many debates shown as one (accuracy, per-claim results): some of its
 * debates may still be the viewer's to label, so it is shown as an unsettled debate would be.
 */
export function runVisibility(p: ViewerPolicy): DebateVisibility {
  return debateVisibility(p, false);
}

/** Whether `viewer` has labelled `debateId` or its overlap target is met. */
export async function settledFor(db: Database, p: ViewerPolicy, debateId: string): Promise<boolean> {
  if (!p.viewerId || !/^[0-9a-f-]{36}$/i.test(debateId)) return false;
  const [row] = await db
    .select({
      mine: sql<boolean>`bool_or(${s.annotations.annotatorId} = ${p.viewerId})`,
      annotators: sql<number>`count(distinct ${s.annotations.annotatorId})::int`,
    })
    .from(s.annotations)
    .where(and(eq(s.annotations.debateId, debateId)));
  return !!row?.mine || (row?.annotators ?? 0) >= p.overlap;
}

/** What `principal` may see of `debateId`. */
export async function visibilityOf(
  db: Database,
  principal: Principal | null,
  debateId: string,
): Promise<DebateVisibility> {
  const p = await viewerPolicy(db, principal);
  if (seesEverything(p)) return debateVisibility(p, true);
  return debateVisibility(p, await settledFor(db, p, debateId));
}

/** Of `debateIds`, those settled for the viewer (one query, for lists). */
export async function settledAmong(db: Database, p: ViewerPolicy, debateIds: string[]): Promise<Set<string>> {
  if (!p.viewerId || !debateIds.length) return new Set();
  const rows = await db
    .select({ id: s.annotations.debateId })
    .from(s.annotations)
    // One array parameter whatever the number of debates (db/bulk.ts).
    .where(anyUuid(s.annotations.debateId, debateIds))
    .groupBy(s.annotations.debateId)
    .having(
      sql`bool_or(${s.annotations.annotatorId} = ${p.viewerId}) or count(distinct ${s.annotations.annotatorId}) >= ${p.overlap}`,
    );
  return new Set(rows.map((r) => r.id));
}

/** SQL: the debate in `debateId` is settled for the viewer (for filtering lists and exports). */
export function settledSql(p: ViewerPolicy, debateId: unknown) {
  return sql`(exists (select 1 from ${s.annotations} a where a.debate_id = ${debateId} and a.annotator_id = ${p.viewerId})
      or (select count(distinct a.annotator_id) from ${s.annotations} a where a.debate_id = ${debateId}) >= ${p.overlap})`;
}

/**
 * What `viewer` may see of a debate's labels: all of them, or only their own while the visibility
 * policy above hides others' labels from them (blind annotation, debate not settled).
 */
export async function visibleAnnotations(db: Database, viewer: Principal, debateId: string) {
  const all = await currentAnnotations(db, [debateId]);
  if ((await visibilityOf(db, viewer, debateId)).otherLabels) return all;
  return all.filter((a) => a.annotatorId === viewer.id);
}
