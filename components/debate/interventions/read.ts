import type { MethodDefinition } from "@/lib/debate/definition";
import type { InterventionKind, InterventionView, MethodInterventions } from "@/lib/debate/interventions/contract";

/**
 * What the page reads about interventions, as plain functions the tests can call: the kinds a
 * method takes, where each intervention sits in the transcript, and what it did to the evidence.
 */

/** What the method declares (its definition's `interventions`); null: it takes none and the page offers none. */
export function methodInterventions(def: MethodDefinition | undefined): MethodInterventions | null {
  const declared = def?.interventions;
  return declared && declared.kinds.length > 0 ? declared : null;
}

/** The panel's tabs, in the order a journalist reaches for them. */
export const KIND_TITLES: Record<InterventionKind, string> = {
  add_evidence: "Add evidence",
  ask: "Ask a question",
  strike: "Strike a source",
  hold_verdict: "Hold the verdict",
};

/** The kinds the panel offers: the method's own, in the panel's order; none for a method that takes none. */
export function offeredKinds(declared: MethodInterventions | null): InterventionKind[] {
  if (!declared) return [];
  return (Object.keys(KIND_TITLES) as InterventionKind[]).filter((k) => declared.kinds.includes(k));
}

/** Interventions merged by id: ones the page just sent join those the server sent, the server's copy winning. */
export function mergeInterventions(server: InterventionView[], local: InterventionView[]): InterventionView[] {
  const ids = new Set(server.map((i) => i.id));
  return [...server, ...local.filter((i) => !ids.has(i.id))].sort((a, b) => a.at.localeCompare(b.at));
}

/**
 * Where each intervention is drawn: before the first shown turn at or after the step it preceded
 * (`before`, by seq; a step the transcript does not show, such as a judge's checkpoint, passes it
 * on to the next speech), or at the end (`after`: still waiting, refused before reaching a step, or
 * after the last turn shown).
 */
export function placeInterventions(
  interventions: InterventionView[],
  shownSeqs: Iterable<number>,
): { before: Map<number, InterventionView[]>; after: InterventionView[] } {
  const shown = [...shownSeqs].sort((a, b) => a - b);
  const before = new Map<number, InterventionView[]>();
  const after: InterventionView[] = [];
  for (const i of [...interventions].sort((a, b) => a.at.localeCompare(b.at))) {
    const at = i.beforeSeq === null ? undefined : shown.find((seq) => seq >= i.beforeSeq!);
    if (at !== undefined) before.set(at, [...(before.get(at) ?? []), i]);
    else after.push(i);
  }
  return { before, after };
}

/**
 * The passage an intervention concerns: the rank it was added at, or for a strike the struck
 * passage (the contract's `evidenceRank` when the engine fills it, else the "Struck E<n>" its summary opens with).
 */
export function rankOf(i: InterventionView): number | null {
  if (i.evidenceRank !== null) return i.evidenceRank;
  if (i.kind !== "strike") return null;
  const n = Number(/^Struck E(\d+)\b/.exec(i.summary)?.[1]);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** What a person did to one passage: added it, or struck it (with the intervention's words, which carry the reason). */
export type EvidenceMark = { addedBy?: string; struck?: { by: string; summary: string } };

/**
 * Marks by evidence rank. A strike counts once applied (a waiting one has not taken the passage
 * away from the agents yet, so the page does not say it has).
 */
export function evidenceMarks(interventions: InterventionView[]): Map<number, EvidenceMark> {
  const marks = new Map<number, EvidenceMark>();
  for (const i of interventions) {
    const rank = rankOf(i);
    if (rank === null || i.status !== "applied") continue;
    const mark = marks.get(rank) ?? {};
    if (i.kind === "add_evidence") mark.addedBy = i.by;
    else if (i.kind === "strike") mark.struck = { by: i.by, summary: i.summary };
    else continue;
    marks.set(rank, mark);
  }
  return marks;
}

/** A method that takes interventions only before its first step (ZoFia's analysts read once): closed once a step exists. */
export function closedAfterStart(declared: MethodInterventions, steps: number): boolean {
  return declared.until === "start" && steps > 0;
}

const TOOK_PART: Record<InterventionKind, (n: number) => string> = {
  add_evidence: (n) => (n === 1 ? "added a passage of evidence" : `added ${n} passages of evidence`),
  ask: (n) => (n === 1 ? "asked a question" : `asked ${n} questions`),
  strike: (n) => (n === 1 ? "struck a source" : `struck ${n} sources`),
  hold_verdict: () => "held the verdict for more argument",
};

/**
 * The line under a verdict when people took part: what the applied interventions did, in words
 * ("People added a passage of evidence and asked 2 questions"). Null when none entered the debate:
 * the verdict is then the agents' work alone. Waiting and refused ones changed nothing and are not counted.
 * `firstId`: the oldest applied one, which the line links to.
 */
export function interventionNote(interventions: readonly InterventionView[]): { text: string; firstId: string } | null {
  const applied = interventions.filter((i) => i.status === "applied");
  if (applied.length === 0) return null;
  const parts = (Object.keys(TOOK_PART) as InterventionKind[])
    .map((k) => [k, applied.filter((i) => i.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => TOOK_PART[k](n));
  const words = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0]!;
  return {
    text: `People ${words} during this debate; the verdict is not the agents' work alone.`,
    firstId: [...applied].sort((a, b) => a.at.localeCompare(b.at))[0]!.id,
  };
}
