import { countedAs, type Abstention, type InconclusivePolicy } from "./inconclusive";
import { summarize, UNPARSED } from "./metrics";

/**
 * Repeated runs (`eval --repeats N`): the same claims debated N times, each repeat its own
 * evaluation run (eval_items holds one debate per claim and run, so repeats are runs, linked by
 * `config.repeat = {group, index, of}`; no schema change). PROClaim's main setting is the
 * majority over 3 runs; the paper also gives the best-of-3 "oracle" (a claim counts as right when
 * any run got it right), an upper bound and never a result.
 *
 * Majority: over the stored labels of the runs that finished the claim (UNPARSED is no vote).
 * A tie, N even or a three-way split, is the protocol's label that takes no side (INCONCLUSIVE),
 * which the reporting policy then reads like any single verdict; a protocol without one records
 * the tie as UNPARSED, so it counts as wrong. No runs with a vote: UNPARSED.
 */

export type RepeatInfo = { group: string; index: number; of: number };

export function isRepeatInfo(v: unknown): v is RepeatInfo {
  const r = v as RepeatInfo | null;
  return (
    !!r && typeof r === "object" && typeof r.group === "string" && Number.isInteger(r.index) && Number.isInteger(r.of)
  );
}

export function majorityLabel(votes: ReadonlyArray<string | null>, tieLabel: string): { label: string; tie: boolean } {
  const counts = new Map<string, number>();
  for (const v of votes) if (v !== null && v !== UNPARSED) counts.set(v, (counts.get(v) ?? 0) + 1);
  if (counts.size === 0) return { label: UNPARSED, tie: false };
  const top = Math.max(...counts.values());
  const leaders = [...counts.entries()].filter(([, n]) => n === top);
  return leaders.length === 1 ? { label: leaders[0]![0], tie: false } : { label: tieLabel, tie: true };
}

/** One run's finished and unfinished items, as a report reads them. */
export type RepeatItem = {
  claim_id: string;
  /** Already read into the run's scored labels; null when it has none there. */
  gold: string | null;
  status: string;
  /** The stored label (UNPARSED when missing) of a finished item; null otherwise. */
  predicted: string | null;
  tokens: number;
};

export type RepeatRun = { run_id: string; index: number; status: string; items: RepeatItem[] };

export type RepeatClaim = {
  claim_id: string;
  gold: string | null;
  /** Stored labels by repeat index (null: that run has not finished the claim). */
  votes: Array<string | null>;
  majority: string;
  tie: boolean;
  /** The majority as scored under the policy; null when the policy leaves it out. */
  counted_as: string | null;
  correct: boolean | null;
  /** Right in at least one run (the oracle). */
  any_correct: boolean;
};

export type RepeatsSummary = {
  group: string;
  of: number;
  runs: Array<{
    run_id: string;
    index: number;
    status: string;
    n: number;
    accuracy: number | null;
    macro_f1: number | null;
    mean_tokens_per_claim: number | null;
  }>;
  labels: readonly string[];
  policy: InconclusivePolicy | null;
  tie_label: string;
  majority: { n: number; accuracy: number | null; macro_f1: number | null; ties: number; excluded: number };
  best_of: { n: number; accuracy: number | null };
  mean_run_accuracy: number | null;
  /** Claims scored with fewer than `of` finished runs (their majority is over the runs that finished). */
  incomplete: number;
  /** Mean tokens of one debate (one claim, one run), the paper's "tokens per claim"; and per claim over all runs. */
  tokens: { per_debate: number | null; per_claim_all_runs: number | null };
  claims: RepeatClaim[];
};

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export function aggregateRepeats(
  group: string,
  of: number,
  runs: readonly RepeatRun[],
  ctx: { labels: readonly string[]; abstention: Abstention | null; policy: InconclusivePolicy | null },
): RepeatsSummary {
  const tieLabel = ctx.abstention?.label ?? UNPARSED;
  const count = (p: string | null) =>
    p === null ? null : ctx.abstention && ctx.policy ? countedAs(ctx.abstention, ctx.policy, p) : p;
  const ordered = [...runs].sort((a, b) => a.index - b.index);
  const inLabels = (g: string | null): g is string => g !== null && ctx.labels.includes(g);

  const perRun = ordered.map((r) => {
    const scored = r.items
      .filter((i) => i.status === "done" && inLabels(i.gold))
      .map((i) => ({ gold: i.gold!, predicted: count(i.predicted) }));
    const kept = scored.filter((x): x is { gold: string; predicted: string } => x.predicted !== null);
    const s = summarize(kept, ctx.labels);
    const done = r.items.filter((i) => i.status === "done");
    return {
      run_id: r.run_id,
      index: r.index,
      status: r.status,
      n: s.n,
      accuracy: s.accuracy,
      macro_f1: s.macro_f1,
      mean_tokens_per_claim: mean(done.map((i) => i.tokens)),
    };
  });

  const byClaim = new Map<string, { gold: string | null; votes: Array<string | null> }>();
  ordered.forEach((r, k) => {
    for (const i of r.items) {
      const c = byClaim.get(i.claim_id) ?? { gold: i.gold, votes: Array<string | null>(ordered.length).fill(null) };
      c.votes[k] = i.status === "done" ? (i.predicted ?? UNPARSED) : null;
      byClaim.set(i.claim_id, c);
    }
  });

  const claims: RepeatClaim[] = [];
  let ties = 0;
  let excluded = 0;
  let incomplete = 0;
  const majorityItems: Array<{ gold: string; predicted: string }> = [];
  let oracleN = 0;
  let oracleRight = 0;
  for (const [claim_id, c] of byClaim) {
    const finished = c.votes.filter((v) => v !== null);
    const { label, tie } = majorityLabel(c.votes, tieLabel);
    const counted = finished.length ? count(label) : null;
    const anyCorrect = inLabels(c.gold) && c.votes.some((v) => v !== null && count(v) === c.gold);
    claims.push({
      claim_id,
      gold: c.gold,
      votes: c.votes,
      majority: finished.length ? label : UNPARSED,
      tie,
      counted_as: counted,
      correct: finished.length && inLabels(c.gold) && counted !== null ? counted === c.gold : null,
      any_correct: anyCorrect,
    });
    if (!finished.length || !inLabels(c.gold)) continue;
    if (finished.length < of) incomplete++;
    if (tie) ties++;
    // The oracle leaves a claim out only when every run's verdict is left out by the policy.
    if (c.votes.some((v) => v !== null && count(v) !== null)) {
      oracleN++;
      if (anyCorrect) oracleRight++;
    }
    if (counted === null) {
      excluded++;
      continue;
    }
    majorityItems.push({ gold: c.gold, predicted: counted });
  }
  const m = summarize(majorityItems, ctx.labels);
  const done = ordered.flatMap((r) => r.items.filter((i) => i.status === "done"));
  const started = claims.filter((c) => c.votes.some((v) => v !== null)).length;
  const accs = perRun.map((r) => r.accuracy).filter((x): x is number => x !== null);
  return {
    group,
    of,
    runs: perRun,
    labels: ctx.labels,
    policy: ctx.abstention ? ctx.policy : null,
    tie_label: tieLabel,
    majority: { n: m.n, accuracy: m.accuracy, macro_f1: m.macro_f1, ties, excluded },
    best_of: { n: oracleN, accuracy: oracleN ? oracleRight / oracleN : null },
    mean_run_accuracy: mean(accs),
    incomplete,
    tokens: {
      per_debate: mean(done.map((i) => i.tokens)),
      per_claim_all_runs: started ? done.reduce((a, i) => a + i.tokens, 0) / started : null,
    },
    claims,
  };
}
