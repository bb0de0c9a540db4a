import { listInterventions, markInterventionApplied, markInterventionRefused } from "@/db/queries/interventions";
import { publish } from "../events";
import { runStore } from "../run-store";
import type { DebateEvidence, Motion, MotionRuling } from "../types";
import { checkStillHeld, type RunScope } from "../steps/scope";
import { PERSON_ORIGIN } from "./apply";
import type { AddedPassage } from "./service";
import { interventionView } from "./view";

/*
 * Added evidence as a motion (a method whose definition says `interventions.motions`, PROClaim):
 * the engine hands the protocol the passages people added and records its ruling; the protocol
 * never reads the table. The hearing point (`beforeStep`) is the journal of motions: a resumed run
 * hears at that point exactly the ones ruled there before (its hearing turn replays from the
 * journal, so the ruling comes out the same), and one ruled elsewhere is never heard again.
 */

const passageOf = (payload: unknown) => (payload as { passage?: AddedPassage }).passage;

export async function motionsAt(scope: RunScope, point: string): Promise<Motion[]> {
  const rows = await listInterventions(scope.db, scope.debateId);
  const out: Motion[] = [];
  for (const r of rows) {
    if (r.kind !== "add_evidence" || !(r.status === "waiting" || r.beforeStep === point)) continue;
    const p = passageOf(r.payload);
    if (!p) continue;
    out.push({
      id: r.id,
      title: p.title,
      text: p.text,
      ...(p.url ? { url: p.url } : {}),
      ...(p.publishedAt ? { publishedAt: p.publishedAt } : {}),
      ...(p.passageId !== undefined ? { passageId: p.passageId } : {}),
      by: r.byName,
    });
  }
  return out;
}

export async function ruleOnMotion(scope: RunScope, m: Motion, ruling: MotionRuling): Promise<DebateEvidence | null> {
  const at = { beforeSeq: ruling.seq, beforeStep: ruling.point };
  let admitted: DebateEvidence | null = null;
  let changed: boolean;
  if (ruling.admitted) {
    admitted = scope.pool.find((e) => e.origin === PERSON_ORIGIN && e.metadata?.interventionId === m.id) ?? null;
    if (!admitted) {
      checkStillHeld(scope);
      admitted = {
        rank: scope.pool.reduce((max, e) => Math.max(max, e.rank), 0) + 1,
        text: m.text,
        source: "supplied",
        title: m.title,
        ...(m.url ? { url: m.url } : {}),
        ...(m.publishedAt ? { publishedAt: m.publishedAt } : {}),
        ...(m.passageId !== undefined ? { passageId: m.passageId } : {}),
        origin: PERSON_ORIGIN,
        addedSeq: ruling.seq,
        metadata: { ...ruling.metadata, interventionId: m.id, addedBy: m.by },
      };
      scope.pool.push(admitted);
      await runStore().addDebateEvidence(scope.db, scope.debateId, [admitted]);
      publish(scope.debateId, { type: "evidence", evidence: [admitted] });
    }
    changed = await markInterventionApplied(scope.db, m.id, { ...at, evidenceRank: admitted.rank });
  } else {
    // One line: the court's reason is a model's words, shown to every viewer as plain text.
    const reason = ruling.reason.replace(/\s+/g, " ").trim().slice(0, 300) || "refused by the court";
    changed = await markInterventionRefused(scope.db, m.id, at, reason);
  }
  if (changed) {
    const row = (await listInterventions(scope.db, scope.debateId)).find((r) => r.id === m.id);
    if (row) publish(scope.debateId, { type: "intervention", intervention: interventionView(row) });
  }
  return admitted;
}
