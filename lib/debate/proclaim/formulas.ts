/**
 * PROClaim's arithmetic (proclaim design decisions §2), kept free of models and storage so each
 * rule can be checked on its own numbers.
 */

export const VERDICT_LABELS = ["SUPPORTED", "NOT SUPPORTED", "INCONCLUSIVE"] as const;
export type VerdictLabel = (typeof VERDICT_LABELS)[number];
export const UNPARSED = "UNPARSED";

export type EvidenceStatus = "admitted" | "disputed" | "discarded" | "unparsed";

/** Admissibility: w = r × c; admitted above admitW, disputed above discardW, else discarded. */
export function admissibility(
  r: number,
  c: number,
  t: { admitW: number; discardW: number } = { admitW: 0.5, discardW: 0.1 },
): { w: number; status: Exclude<EvidenceStatus, "unparsed"> } {
  // Rounded so that 0.5 × 1 and 1 × 0.5 land on the band edge exactly (binary fractions would not).
  const w = Math.round(r * c * 1e9) / 1e9;
  return { w, status: w > t.admitW ? "admitted" : w > t.discardW ? "disputed" : "discarded" };
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * (b[i] ?? 0);
    na += a[i]! * a[i]!;
    nb += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** η(d) = 1 − max cos(e_d, e_p) over the pool; an empty pool makes everything new (1). */
export function novelty(candidate: readonly number[], pool: readonly (readonly number[])[]): number {
  if (pool.length === 0) return 1;
  const max = Math.max(...pool.map((p) => cosine(candidate, p)));
  return Math.round((1 - max) * 1e9) / 1e9;
}

export function acceptNovel(eta: number, etaMin = 0.2): boolean {
  return eta >= etaMin;
}

/** s_ref = 0.4·logic + 0.3·novelty + 0.3·rebuttal (each in [0,1]); δ = (s_ref − 0.5) × 0.6 ∈ [−0.3, 0.3]. */
export function reflectionScore(s: { logic: number; novelty: number; rebuttal: number }): {
  sRef: number;
  delta: number;
} {
  const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
  const sRef = round6(0.4 * clamp01(s.logic) + 0.3 * clamp01(s.novelty) + 0.3 * clamp01(s.rebuttal));
  return { sRef, delta: round6((sRef - 0.5) * 0.6) };
}

export type StopReason = "plateau" | "critic" | "novelty" | "court";

export type RoundSignals = {
  round: number;
  /** S_t = s_ref(plaintiff) + s_ref(defense); null when a reflection was unparsed or reflection is off. */
  S: number | null;
  criticResolved: boolean;
  /** Mean η of this round's accepted items (0 if none); null without P-RAG, where the novelty rule has nothing to measure. */
  meanEta: number | null;
};

/**
 * The first of stops (i)–(iii) that fires after `rounds.at(-1)`, or null (then the court is asked,
 * stop iv). Nothing fires in round 1: every rule compares with an earlier round or needs two.
 */
export function firstStop(
  rounds: readonly RoundSignals[],
  t: { plateauDelta: number; plateauRounds: number; noveltyStopEta: number } = {
    plateauDelta: 0.05,
    plateauRounds: 1,
    noveltyStopEta: 0.1,
  },
): { reason: Exclude<StopReason, "court"> | null; deltaS: number | null } {
  const cur = rounds.at(-1);
  if (!cur || cur.round < 2 || rounds.length < 2) return { reason: null, deltaS: null };
  const deltas: Array<number | null> = [];
  for (let i = rounds.length - 1; i >= 1 && deltas.length < t.plateauRounds; i--) {
    const a = rounds[i]!.S;
    const b = rounds[i - 1]!.S;
    deltas.push(a === null || b === null ? null : round6(Math.abs(a - b)));
  }
  const deltaS = deltas[0] ?? null;
  if (deltas.length === t.plateauRounds && deltas.every((d) => d !== null && d < t.plateauDelta))
    return { reason: "plateau", deltaS };
  if (cur.criticResolved) return { reason: "critic", deltaS };
  const prev = rounds.at(-2)!;
  if (
    cur.meanEta !== null &&
    prev.meanEta !== null &&
    cur.meanEta < t.noveltyStopEta &&
    prev.meanEta < t.noveltyStopEta
  )
    return { reason: "novelty", deltaS };
  return { reason: null, deltaS };
}

export type Ballot = {
  label: VerdictLabel | typeof UNPARSED;
  scores: { evidence: number; validity: number; reliability: number } | null;
  gamma: number | null;
};

/** Plurality over the judges who answered; a tie goes to judge-1's label (the chief justice); nobody answered: UNPARSED. */
export function plurality(ballots: readonly Ballot[]): {
  label: VerdictLabel | typeof UNPARSED;
  votes: Record<VerdictLabel, number>;
  winningVotes: number;
  tieBreak: boolean;
} {
  const votes = { SUPPORTED: 0, "NOT SUPPORTED": 0, INCONCLUSIVE: 0 } as Record<VerdictLabel, number>;
  for (const b of ballots) if (b.label !== UNPARSED) votes[b.label]++;
  const max = Math.max(...Object.values(votes));
  if (max === 0) return { label: UNPARSED, votes, winningVotes: 0, tieBreak: false };
  const top = VERDICT_LABELS.filter((l) => votes[l] === max);
  if (top.length === 1) return { label: top[0]!, votes, winningVotes: max, tieBreak: false };
  const chief = ballots[0]?.label;
  // The chief justice breaks a tie; when judge-1 abstained or voted outside the tie, the first tied label in scale order.
  const label = chief && chief !== UNPARSED && top.includes(chief) ? chief : top[0]!;
  return { label, votes, winningVotes: max, tieBreak: true };
}

/** δ_rs from the holistic score γ (0–10). */
export function deltaRs(gamma: number | null): number {
  if (gamma === null) return 0;
  return gamma >= 7 ? 0.1 : gamma >= 5 ? 0 : -0.05;
}

export type Confidence = {
  sigma: number;
  q: number;
  cBase: number;
  deltaRs: number;
  deltaRef: number;
  cFinal: number;
  gamma: number | null;
};

/**
 * σ = winning votes / panel size; q = (mean evidence + mean validity + mean reliability)/30 over
 * the judges who answered; c_base = 0.8σ + 0.3q; c_final = clamp(c_base + δ_rs + δ_ref, 0, 1),
 * floored at 0.10 when σ ≥ 2/3. `sigmaWeight` is the paper's 0.8 (fitted by 5-fold CV on ECE); with it
 * a 2/3 majority cannot fall under 0.10, so the floor only bites for a smaller fitted weight.
 */
export function confidence(input: {
  winningVotes: number;
  panelSize: number;
  ballots: readonly Ballot[];
  gamma: number | null;
  winnerDelta: number | null;
  sigmaWeight?: number;
}): Confidence {
  const sigma = round6(input.winningVotes / input.panelSize);
  const scored = input.ballots.filter((b) => b.label !== UNPARSED && b.scores);
  const mean = (f: (b: Ballot) => number) => (scored.length ? scored.reduce((a, b) => a + f(b), 0) / scored.length : 0);
  const q = round6(
    (mean((b) => b.scores!.evidence) + mean((b) => b.scores!.validity) + mean((b) => b.scores!.reliability)) / 30,
  );
  const cBase = round6((input.sigmaWeight ?? 0.8) * sigma + 0.3 * q);
  const dRs = deltaRs(input.gamma);
  const dRef = input.winnerDelta === null ? 0 : Math.max(-0.15, input.winnerDelta);
  let cFinal = Math.min(1, Math.max(0, cBase + dRs + dRef));
  if (sigma >= 2 / 3 - 1e-9) cFinal = Math.max(0.1, cFinal);
  return { sigma, q, cBase, deltaRs: dRs, deltaRef: round6(dRef), cFinal: round6(cFinal), gamma: input.gamma };
}

/** P-RAG's own stop diagnostics (App. I), logged (or enforced with pragStops "enforce"). */
export function pragDiagnostics(input: {
  cosinesToPool: number[];
  meanScore: number | null;
  previousMeanScore: number | null;
  round: number;
  calls: number;
}): {
  redundancy: number;
  redundant: boolean;
  relevanceGain: number | null;
  lowGain: boolean;
  tooManyCalls: boolean;
  fires: boolean;
} {
  const n = input.cosinesToPool.length;
  const redundancy = n ? round6(input.cosinesToPool.filter((c) => c > 0.85).length / n) : 0;
  const redundant = redundancy > 0.7;
  const relevanceGain =
    input.meanScore !== null && input.previousMeanScore !== null
      ? round6(input.meanScore - input.previousMeanScore)
      : null;
  const lowGain = input.round >= 2 && relevanceGain !== null && relevanceGain < 0.05;
  const tooManyCalls = input.calls >= 10;
  return { redundancy, redundant, relevanceGain, lowGain, tooManyCalls, fires: redundant || lowGain || tooManyCalls };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
