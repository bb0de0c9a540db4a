import type { InterventionRow } from "@/db/queries/interventions";
import type { InterventionKind, InterventionView } from "./contract";

/** A stored intervention as every viewer sees it (the contract's InterventionView). */
export function interventionView(r: InterventionRow): InterventionView {
  return {
    id: r.id,
    kind: r.kind as InterventionKind,
    by: r.byName,
    at: r.createdAt.toISOString(),
    summary: r.summary,
    status: r.status,
    refusal: r.refusal,
    beforeSeq: r.beforeSeq,
    answeredBySeq: r.answeredBySeq,
    evidenceRank: r.evidenceRank,
  };
}
