"use client";

import { useCallback, useMemo, useState } from "react";
import type { MethodDefinition } from "@/lib/debate/definition";
import type { InterventionView } from "@/lib/debate/interventions/contract";
import type { DebateView } from "@/lib/debate/view";
import { InterventionPanel } from "./intervention-panel";
import { evidenceMarks, mergeInterventions, methodInterventions, placeInterventions } from "./read";

/**
 * Everything the live page needs about interventions, in one call so the page itself only places
 * the parts: the list (the server's, with what this page just sent until the server's copy
 * arrives), where each goes among the shown turns, the evidence marks, and the panel (only for
 * someone who may control the debate, only while it can still take one, only if the method takes any).
 */
export function useInterventions(
  view: DebateView,
  def: MethodDefinition | undefined,
  canControl: boolean,
  shownSeqs: number[],
) {
  const [sent, setSent] = useState<InterventionView[]>([]);
  const onSent = useCallback((i: InterventionView) => setSent((s) => [...s.filter((x) => x.id !== i.id), i]), []);
  const items = useMemo(() => mergeInterventions(view.interventions, sent), [view, sent]);
  const placed = useMemo(() => placeInterventions(items, shownSeqs), [items, shownSeqs]);
  const marks = useMemo(() => evidenceMarks(items), [items]);
  const declared = methodInterventions(def);
  const open = !view.verdict && view.status !== "completed" && view.status !== "failed";
  const panel =
    canControl && declared && open ? (
      <InterventionPanel
        debateId={view.id}
        declared={declared}
        evidence={view.evidence}
        interventions={items}
        steps={view.turns.length}
        onSent={onSent}
      />
    ) : null;
  return { items, placed, marks, panel };
}
