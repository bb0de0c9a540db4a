import { methodTitle } from "@/lib/debate/methods";
import type { Database } from "@/db/client";
import { matrixGroupRuns } from "@/db/queries/eval-matrix";
import { isMatrixInfo, type MatrixInfo, type MatrixScoring } from "./matrix";
import { mcnemarExact, type BootstrapOptions, type WithCI } from "./metrics";
import type { ReferenceRow } from "./presets";
import { PRODUCT_SCALE_SENTENCE } from "./product-scale";
import { buildReport, type EvalReport } from "./report";

/**
 * The leaderboard of an evaluation matrix: one row per protocol, every number taken from that
 * run's own report (buildReport: the same scoring, intervals and cost figures as `eval report`),
 * pairwise McNemar tests on the claims both runs finished and scored, and the papers' rows that
 * match the dataset, marked as the papers'.
 */

export type LeaderboardRow = {
  protocol: string;
  title: string;
  run_id: string;
  run_name: string;
  status: string;
  variant: string | null;
  preset: string | null;
  models: string[];
  scoring: MatrixScoring | null;
  /** Scored on TRUE / HALF-TRUE / FALSE because its own labels cannot read the dataset's (the report's `scale`). */
  on_product_scale: boolean;
  labels: readonly string[];
  /** Claims scored (finished, gold in the labels); finished and total items. */
  n: number;
  done: number;
  total: number;
  failed: number;
  /** Scored verdicts that could not be read (counted as wrong in accuracy). */
  unparsed: number;
  /** Every scored verdict unparsed: its accuracy of 0 is a broken run, so the headline comparison leaves it out. */
  unreadable: boolean;
  accuracy: WithCI;
  macro_f1: WithCI;
  /** Means over finished claims, from the report's cost distributions. */
  tokens_per_claim: number | null;
  /** Null when a call had no known price. */
  cost_per_claim_usd: number | null;
  calls_per_claim: number | null;
  seconds_per_claim: number | null;
  /** What differs from the papers' setting (the preset's caveat), printed with their rows. */
  caveat: string | null;
  /** How the run's report scored a verdict that takes no side (PROClaim's INCONCLUSIVE); null when the protocol has none. */
  inconclusive_policy: string | null;
};

export type PairRow = {
  a: string;
  b: string;
  /** Claims both runs finished and scored. */
  shared: number;
  only_a_right: number;
  only_b_right: number;
  both_right: number;
  both_wrong: number;
  /** McNemar's exact two-sided p (metrics.mcnemarExact). */
  p_value: number;
};

export type LeaderboardReference = ReferenceRow & { protocol: string };

export type FrontierPoint = { id: string; x: number; y: number };

export type Leaderboard = {
  group: string;
  dataset: string | null;
  /** Claims selected for every run. */
  claims: number;
  sample: MatrixInfo["sample"] | null;
  created_at: string | null;
  /** Best accuracy first; runs with nothing scored, or nothing readable, last. */
  rows: LeaderboardRow[];
  pairs: PairRow[];
  references: LeaderboardReference[];
  /** What the chart's x axis is: cost per claim when every run's cost is known and some is above zero, else tokens per claim. */
  frontier: { axis: "cost_usd" | "tokens"; protocols: string[] };
  best: { protocol: string; runner_up: string | null; pair: PairRow | null } | null;
  bootstrap: EvalReport["metrics"]["bootstrap"] | null;
};

/**
 * The points no other point beats on both: lower-or-equal x (cost) and higher-or-equal y
 * (accuracy), better on at least one. Returned by increasing x: the frontier line's order.
 */
export function frontier(points: readonly FrontierPoint[]): FrontierPoint[] {
  const beats = (q: FrontierPoint, p: FrontierPoint) => q.x <= p.x && q.y >= p.y && (q.x < p.x || q.y > p.y);
  return points.filter((p) => !points.some((q) => q !== p && beats(q, p))).sort((a, b) => a.x - b.x || b.y - a.y);
}

function rowOf(r: EvalReport, info: MatrixInfo | null): LeaderboardRow {
  const c = r.cost.per_claim;
  const cfg = r.run.config as { models?: Record<string, string>; preset?: string | null; caveat?: unknown };
  let title = r.run.protocol;
  try {
    title = methodTitle(r.run.protocol);
  } catch {
    // A protocol this build does not know keeps its name.
  }
  return {
    protocol: r.run.protocol,
    title,
    run_id: r.run.id,
    run_name: r.run.name,
    status: r.run.status,
    variant: r.run.variant,
    preset: cfg.preset ?? null,
    models: [...new Set(Object.values(cfg.models ?? {}))],
    scoring: info?.scoring ?? null,
    on_product_scale: r.scale === "product",
    labels: r.labels,
    n: r.metrics.n,
    done: r.progress.done,
    total: r.progress.total,
    failed: r.progress.failed,
    unparsed: r.verdicts.unparsed,
    unreadable: r.verdicts.unreadable,
    accuracy: r.metrics.accuracy,
    macro_f1: r.metrics.macro_f1,
    tokens_per_claim: c.tokens.mean,
    cost_per_claim_usd: c.cost_usd?.mean ?? null,
    calls_per_claim: c.llm_calls.mean,
    seconds_per_claim: c.latency_ms.mean === null ? null : c.latency_ms.mean / 1000,
    caveat: typeof cfg.caveat === "string" && cfg.caveat ? cfg.caveat : null,
    inconclusive_policy: r.inconclusive?.policy ?? null,
  };
}

/** Right or wrong per claim as the run's report scored it; claims it did not score are absent. */
function correctness(r: EvalReport): Map<string, boolean> {
  return new Map(
    r.items
      .filter((i) => i.status === "done" && i.correct !== null && r.labels.includes(i.gold ?? ""))
      .map((i) => [i.claim_id, i.correct!]),
  );
}

export function pairOf(
  a: { protocol: string; correct: Map<string, boolean> },
  b: { protocol: string; correct: Map<string, boolean> },
): PairRow {
  let onlyA = 0;
  let onlyB = 0;
  let both = 0;
  let neither = 0;
  for (const [claim, ca] of a.correct) {
    const cb = b.correct.get(claim);
    if (cb === undefined) continue;
    if (ca && cb) both++;
    else if (ca) onlyA++;
    else if (cb) onlyB++;
    else neither++;
  }
  return {
    a: a.protocol,
    b: b.protocol,
    shared: onlyA + onlyB + both + neither,
    only_a_right: onlyA,
    only_b_right: onlyB,
    both_right: both,
    both_wrong: neither,
    p_value: mcnemarExact(onlyA, onlyB),
  };
}

export async function buildLeaderboard(
  db: Database,
  group: string,
  opts: BootstrapOptions = {},
): Promise<Leaderboard | null> {
  const runs = await matrixGroupRuns(db, group);
  if (!runs.length) return null;
  const reports = (await Promise.all(runs.map((r) => buildReport(db, r.id, opts)))).filter(
    (r): r is EvalReport => r !== null,
  );
  const infos = reports.map((r) => (isMatrixInfo(r.run.config.matrix) ? r.run.config.matrix : null));
  const rows = reports.map((r, i) => rowOf(r, infos[i]!));
  const correct = reports.map((r) => ({ protocol: r.run.protocol, correct: correctness(r) }));
  const pairs: PairRow[] = [];
  for (let i = 0; i < correct.length; i++)
    for (let j = i + 1; j < correct.length; j++) pairs.push(pairOf(correct[i]!, correct[j]!));
  const references = reports.flatMap((r) => r.references.map((x) => ({ ...x, protocol: r.run.protocol })));
  const index = new Map(rows.map((r, i) => [r.protocol, i]));
  // A run whose every verdict is unparsed has an accuracy of 0 that is not the method's: it ranks with the unscored and is never the best, a runner-up or on the frontier.
  const rank = (r: LeaderboardRow) => (r.unreadable ? -1 : (r.accuracy.value ?? -1));
  const order = [...rows].sort((a, b) => rank(b) - rank(a) || index.get(a.protocol)! - index.get(b.protocol)!);
  const scored = order.filter((r) => r.accuracy.value !== null && !r.unreadable);
  // Costs all known and not all zero (a free local model): otherwise tokens are what tells the methods apart.
  const axis =
    scored.every((r) => r.cost_per_claim_usd !== null) && scored.some((r) => r.cost_per_claim_usd! > 0)
      ? "cost_usd"
      : "tokens";
  const x = (r: LeaderboardRow) => (axis === "cost_usd" ? r.cost_per_claim_usd : r.tokens_per_claim);
  const points = scored.filter((r) => x(r) !== null).map((r) => ({ id: r.protocol, x: x(r)!, y: r.accuracy.value! }));
  const pairFor = (a: string, b: string) =>
    pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a)) ?? null;
  const first = infos.find((i) => i !== null) ?? null;
  return {
    group,
    dataset: first?.dataset ?? reports[0]?.run.dataset ?? null,
    claims: first?.claims ?? Math.max(0, ...rows.map((r) => r.total)),
    sample: first?.sample ?? null,
    created_at: reports.map((r) => r.run.created_at).sort()[0] ?? null,
    rows: order,
    pairs,
    references,
    frontier: { axis, protocols: frontier(points).map((p) => p.id) },
    best: scored.length
      ? {
          protocol: scored[0]!.protocol,
          runner_up: scored[1]?.protocol ?? null,
          pair: scored[1] ? pairFor(scored[0]!.protocol, scored[1].protocol) : null,
        }
      : null,
    bootstrap: reports[0]?.metrics.bootstrap ?? null,
  };
}

// --- formats ---------------------------------------------------------------------------------

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : (x * 100).toFixed(1));
const withCi = (w: WithCI) => (w.value === null ? "—" : `${pct(w.value)} [${pct(w.ci?.low)}, ${pct(w.ci?.high)}]`);
const fixed = (x: number | null, d: number) => (x === null ? "—" : x.toFixed(d));
const usd = (x: number | null) => (x === null ? "unknown" : `$${x < 0.01 ? x.toFixed(5) : x.toFixed(4)}`);
export const pValue = (p: number) => (p < 0.001 ? "< 0.001" : p.toFixed(3));

/** The verdict in one or two sentences: the most accurate method, its interval and cost, and whether the next is distinguishable. */
export function bestSentence(lb: Leaderboard): string {
  const out = leftOutSentence(lb);
  if (!lb.best) return `No method has a scored claim yet.${out ? ` ${out}` : ""}`;
  return `${bestOf(lb)}${out ? ` ${out}` : ""}`;
}

/** The runs the headline leaves out because none of their verdicts could be read, or "". */
export function leftOutSentence(lb: Leaderboard): string {
  const out = lb.rows.filter((r) => r.unreadable);
  if (!out.length) return "";
  return `Left out of this comparison: ${out.map((r) => `${r.title} (all ${r.n} verdicts unparsed)`).join(", ")}; ${out.length === 1 ? "its" : "their"} accuracy of 0 is a run whose answers could not be read, not a method that judged badly.`;
}

function bestOf(lb: Leaderboard): string {
  if (!lb.best) return "";
  const top = lb.rows.find((r) => r.protocol === lb.best!.protocol)!;
  const tokens = top.tokens_per_claim === null ? "—" : Math.round(top.tokens_per_claim).toLocaleString("en-US");
  const cost =
    top.cost_per_claim_usd !== null && top.cost_per_claim_usd > 0
      ? `${usd(top.cost_per_claim_usd)} per claim (${tokens} tokens)`
      : `${tokens} tokens per claim (${top.cost_per_claim_usd === null ? "cost unknown" : "no cost recorded"})`;
  const head = `${top.title} is the most accurate here: ${pct(top.accuracy.value)}% of ${top.n} claims right (95% interval ${pct(top.accuracy.ci?.low)}–${pct(top.accuracy.ci?.high)}%), at ${cost}.`;
  const pair = lb.best.pair;
  const next = lb.rows.find((r) => r.protocol === lb.best!.runner_up);
  if (!pair || !next) return head;
  const [mine, theirs] =
    pair.a === top.protocol ? [pair.only_a_right, pair.only_b_right] : [pair.only_b_right, pair.only_a_right];
  const sig = pair.p_value < 0.05;
  return `${head} ${sig ? "That is a real difference from" : "That is not clearly better than"} ${next.title} (${pct(next.accuracy.value)}%): on the ${pair.shared} claims both scored, ${mine} only ${top.title} got right and ${theirs} only ${next.title}; McNemar's exact test gives p = ${pValue(pair.p_value)}${sig ? ", below 0.05" : ", so the gap could be chance"}.`;
}

/** The methods scored on the product scale, and what that means: one plain sentence, or nothing. */
export function productScaleNote(lb: Leaderboard): string[] {
  const on = lb.rows.filter((r) => r.on_product_scale).map((r) => r.title);
  return on.length ? ["", `${on.join(", ")}: ${PRODUCT_SCALE_SENTENCE}`] : [];
}

export function leaderboardMarkdown(lb: Leaderboard): string {
  const onFrontier = new Set(lb.frontier.protocols);
  const lines = [
    `# Evaluation matrix \`${lb.group}\``,
    "",
    `Dataset ${lb.dataset ?? "—"} · ${lb.claims} claims, the same for every method${lb.sample?.limit ? ` (${lb.sample.sample ?? "first"} ${lb.sample.limit}, seed ${lb.sample.seed ?? 1})` : ""}${lb.bootstrap ? ` · ${Math.round(lb.bootstrap.level * 100)}% bootstrap intervals, ${lb.bootstrap.resamples} resamples, seed ${lb.bootstrap.seed}` : ""}.`,
    "",
    bestSentence(lb),
    "",
    "## Our runs",
    "",
    "| method | run | status | n scored | unparsed / failed | accuracy [95% CI] | macro-F1 [95% CI] | tokens / claim | cost / claim | calls / claim | seconds / claim | on the frontier |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...lb.rows.map(
      (r) =>
        `| ${r.protocol} | \`${r.run_id}\` | ${r.status} (${r.done + r.failed}/${r.total}) | ${r.n} | ${r.unparsed} / ${r.failed} | ${r.unreadable ? `${withCi(r.accuracy)} (all unparsed: not comparable)` : withCi(r.accuracy)} | ${withCi(r.macro_f1)} | ${fixed(r.tokens_per_claim, 0)} | ${usd(r.cost_per_claim_usd)} | ${fixed(r.calls_per_claim, 1)} | ${fixed(r.seconds_per_claim, 2)} | ${onFrontier.has(r.protocol) ? "yes" : "no"} |`,
    ),
    "",
    "How each method was scored on the dataset's gold labels:",
    "",
    ...lb.rows.map(
      (r) =>
        `- ${r.protocol}: ${r.scoring?.how ?? `its report's labels (${r.labels.join(" / ")})`}${r.inconclusive_policy ? ` (policy "${r.inconclusive_policy}")` : ""}.`,
    ),
    ...productScaleNote(lb),
    "",
    "## Pairwise (McNemar's exact test, on the claims both finished and scored)",
    "",
    "| A | B | shared claims | only A right | only B right | both right | both wrong | p |",
    "|---|---|---|---|---|---|---|---|",
    ...lb.pairs.map(
      (p) =>
        `| ${p.a} | ${p.b} | ${p.shared} | ${p.only_a_right} | ${p.only_b_right} | ${p.both_right} | ${p.both_wrong} | ${pValue(p.p_value)} |`,
    ),
    "",
    `The frontier (${lb.frontier.axis === "cost_usd" ? "cost per claim" : "tokens per claim, since no cost tells the methods apart"} against accuracy): ${lb.frontier.protocols.join(" → ") || "—"}.`,
  ];
  lines.push("", "## The papers' numbers (reported by the papers, not reproduced here)", "");
  if (!lb.references.length)
    lines.push(`No paper reports a number for these methods on ${lb.dataset ?? "this dataset"}.`);
  else {
    lines.push(
      "| method | paper | system | model | dataset | n | accuracy | macro-F1 | note |",
      "|---|---|---|---|---|---|---|---|---|",
    );
    for (const x of lb.references)
      lines.push(
        `| ${x.protocol} | paper: ${x.source} | ${x.system} | ${x.model} | ${x.dataset} | ${x.n ?? "?"} | ${x.metric === "accuracy" ? pct(x.value) : "—"} | ${x.metric === "macro_f1" ? pct(x.value) : "—"} | ${x.note ?? ""} |`,
      );
    const caveats = lb.rows.filter((r) => r.caveat && lb.references.some((x) => x.protocol === r.protocol));
    if (caveats.length) lines.push("", ...caveats.map((r) => `Not the paper's setting (${r.protocol}): ${r.caveat}`));
  }
  return lines.join("\n") + "\n";
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const LEADERBOARD_CSV_COLUMNS = [
  "who",
  "method",
  "run_id",
  "status",
  "dataset",
  "system",
  "model",
  "n",
  "accuracy",
  "accuracy_low",
  "accuracy_high",
  "macro_f1",
  "macro_f1_low",
  "macro_f1_high",
  "tokens_per_claim",
  "cost_per_claim_usd",
  "calls_per_claim",
  "seconds_per_claim",
  "on_frontier",
  "scoring",
  "source",
  "note",
  "unparsed",
  "failed",
  "all_unparsed",
] as const;

/** One row per method (who = ours) and per paper row (who = paper); pairwise tests as `#` comment lines after them. */
export function leaderboardCsv(lb: Leaderboard): string {
  const onFrontier = new Set(lb.frontier.protocols);
  const ours = lb.rows.map((r) => ({
    who: "ours",
    method: r.protocol,
    run_id: r.run_id,
    status: r.status,
    dataset: lb.dataset,
    system: r.title,
    model: r.models.join(" + "),
    n: r.n,
    unparsed: r.unparsed,
    failed: r.failed,
    all_unparsed: r.unreadable,
    accuracy: r.accuracy.value,
    accuracy_low: r.accuracy.ci?.low,
    accuracy_high: r.accuracy.ci?.high,
    macro_f1: r.macro_f1.value,
    macro_f1_low: r.macro_f1.ci?.low,
    macro_f1_high: r.macro_f1.ci?.high,
    tokens_per_claim: r.tokens_per_claim,
    cost_per_claim_usd: r.cost_per_claim_usd,
    calls_per_claim: r.calls_per_claim,
    seconds_per_claim: r.seconds_per_claim,
    on_frontier: onFrontier.has(r.protocol),
    scoring: r.scoring?.how,
    source: null,
    note: null,
  }));
  const papers = lb.references.map((x) => ({
    who: "paper",
    method: x.protocol,
    run_id: null,
    status: null,
    dataset: x.dataset,
    system: x.system,
    model: x.model,
    n: x.n,
    unparsed: null,
    failed: null,
    all_unparsed: null,
    accuracy: x.metric === "accuracy" ? x.value : null,
    accuracy_low: null,
    accuracy_high: null,
    macro_f1: x.metric === "macro_f1" ? x.value : null,
    macro_f1_low: null,
    macro_f1_high: null,
    tokens_per_claim: x.tokensPerClaim ?? null,
    cost_per_claim_usd: null,
    calls_per_claim: null,
    seconds_per_claim: null,
    on_frontier: null,
    scoring: null,
    source: x.source,
    note: x.note ?? null,
  }));
  const rows = [...ours, ...papers].map((o) =>
    LEADERBOARD_CSV_COLUMNS.map((c) => csvCell((o as Record<string, unknown>)[c])).join(","),
  );
  const pairs = lb.pairs.map(
    (p) =>
      `# mcnemar ${p.a} vs ${p.b}: shared ${p.shared}, only ${p.a} right ${p.only_a_right}, only ${p.b} right ${p.only_b_right}, p ${p.p_value}`,
  );
  return [LEADERBOARD_CSV_COLUMNS.join(","), ...rows, ...pairs].join("\n") + "\n";
}

export function leaderboardJson(lb: Leaderboard): string {
  return `${JSON.stringify(lb, null, 2)}\n`;
}
