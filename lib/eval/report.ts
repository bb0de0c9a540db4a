import type { Database } from "@/db/client";
import { plural } from "@/lib/plural";
import * as q from "@/db/queries/eval";
import { VERDICT_LABELS } from "@/lib/debate/verdict";
import { getProtocol, productLabel } from "@/lib/debate/protocols";
import {
  goldInScheme,
  isLabelScheme,
  LABEL_SCHEMES,
  PRODUCT_SCHEME,
  type LabelSchemeName,
} from "@/lib/datasets/label-schemes";
import { findMethod, methodTitle } from "@/lib/debate/methods";
import {
  comparePaired,
  distribution,
  excludedItems,
  summarize,
  summarizeWithCI,
  UNPARSED,
  type LabeledItem,
  type BootstrapOptions,
  type Distribution,
  type PairedComparison,
  type Summary,
  type SummaryWithCI,
} from "./metrics";
import type { ReferenceRow } from "./presets";
import { aggregateRepeats, isRepeatInfo, type RepeatsSummary } from "./repeats";
import {
  goldOnProductScale,
  isProductScale,
  NO_PRODUCT_LABEL,
  PRODUCT_SCALE_SENTENCE,
  productLabelsOf,
} from "./product-scale";
import { countUnparsed, healthWarning, verdictHealth, type VerdictHealth } from "./verdict-health";
import {
  abstentionFor,
  abstentionGold,
  applyPolicy,
  countedAs,
  DEFAULT_INCONCLUSIVE_POLICY,
  isInconclusivePolicy,
  policySentence,
  scoredLabels,
  type Abstention,
  type InconclusivePolicy,
  type PolicyOutcome,
} from "./inconclusive";

/**
 * What a run produced, computed from the database whenever it is asked for (so a report of a run
 * still going shows its progress and the metrics of the claims finished so far). The CLI, the
 * /eval pages and the exports all render this one object.
 */

export type Progress = {
  total: number;
  pending: number;
  running: number;
  done: number;
  failed: number;
  elapsed_seconds: number | null;
  eta_seconds: number | null;
  calls: number;
  tokens: number;
  cost_usd: number | null;
  unpriced_calls: number;
};

export async function runProgress(db: Database, runId: string): Promise<Progress> {
  const [run, counts, usage] = await Promise.all([q.getRun(db, runId), q.itemCounts(db, runId), q.runUsage(db, runId)]);
  const started = run?.startedAt?.getTime() ?? null;
  const end = run?.finishedAt?.getTime() ?? Date.now();
  const elapsed = started ? (end - started) / 1000 : null;
  const finished = counts.done + counts.failed;
  const remaining = counts.pending + counts.running;
  // Throughput so far, applied to what is left; none until something finished.
  const eta =
    elapsed && finished > 0 && remaining > 0 && run?.status === "running"
      ? (elapsed / finished) * remaining
      : remaining === 0
        ? 0
        : null;
  return {
    ...counts,
    elapsed_seconds: elapsed === null ? null : Math.round(elapsed * 10) / 10,
    eta_seconds: eta === null ? null : Math.round(eta),
    calls: usage.calls,
    tokens: usage.promptTokens + usage.completionTokens,
    cost_usd: usage.costUsd,
    unpriced_calls: usage.unpricedCalls,
  };
}

export type ReportItem = {
  position: number;
  item_id: string;
  claim_id: string;
  claim: string;
  /** In the run's label scheme (the protocol's own labels), normalised from the stored gold or native label. */
  gold: string | null;
  native_label: string | null;
  /** The verdict as the protocol stored it, its own label. */
  predicted: string | null;
  /**
   * What the verdict is scored as: `predicted`, except a label that takes no side (PROClaim's
   * INCONCLUSIVE) read by the run's reporting policy; null when the policy leaves it out.
   */
  counted_as: string | null;
  /** Both on the product's TRUE / HALF-TRUE / FALSE scale (productLabel()); null when the label has none (NEI). */
  gold_product: string | null;
  predicted_product: string | null;
  correct: boolean | null;
  status: string;
  error: string | null;
  attempts: number;
  debate_id: string | null;
  rounds: number | null;
  stopped_early: boolean | null;
  stop_after: string | null;
  llm_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number | null;
  latency_ms: number | null;
};

export type EvalReport = {
  run: {
    id: string;
    name: string;
    dataset: string | null;
    protocol: string;
    variant: string | null;
    status: string;
    status_reason: string | null;
    executor: string | null;
    config: Record<string, unknown>;
    budget: { maxTokens?: number; maxCostUsd?: number } | null;
    created_at: string;
    started_at: string | null;
    finished_at: string | null;
  };
  progress: Progress;
  /** The protocol's label scheme the run is scored on (e.g. "fever"), null for a protocol with only its own labels. */
  scheme: string | null;
  /**
   * "product" when the run's matrix scored it on TRUE / HALF-TRUE / FALSE because its own labels
   * cannot read the dataset's gold (config.matrix.scoring.scale); then `labels`, `metrics` and each
   * item's gold and counted_as are on that scale.
   */
  scale: "own" | "product";
  labels: readonly string[];
  /** Over finished items whose gold label is in `labels`. */
  metrics: SummaryWithCI;
  /** Unparsed and failed verdicts counted, and whether none could be read (then the accuracy is not the method's). */
  verdicts: VerdictHealth;
  /** How a verdict that takes no side was scored (lib/eval/inconclusive.ts); null when the protocol has none. */
  inconclusive: PolicyOutcome | null;
  /** Finished items with a gold label outside `labels` (e.g. Not Enough Evidence), by gold and prediction. */
  excluded: Record<string, Record<string, number>>;
  cost: {
    per_claim: {
      llm_calls: Distribution;
      prompt_tokens: Distribution;
      completion_tokens: Distribution;
      tokens: Distribution;
      cost_usd: Distribution | null;
      latency_ms: Distribution;
    };
    unpriced_calls: number;
  };
  /** How many finished debates ended after each number of rounds, and how many stopped early. */
  stop_rounds: Record<string, number>;
  stopped_early: number;
  /** Accuracy and average tokens per group of debates that ended after the same number of rounds. */
  by_rounds: Array<{ rounds: number; n: number; accuracy: number | null; avg_tokens: number }>;
  /**
   * The same verdicts on the product's scale, when the protocol's labels are not already it: claims
   * whose gold has no product label (NEI) are left out and counted; a prediction with none is wrong.
   */
  product: {
    labels: readonly string[];
    metrics: Summary;
    excluded_gold_without_product_label: number;
    predicted_without_product_label: number;
  } | null;
  /** The paper's numbers for this setting (from the preset), always printed as the paper's, never as ours. */
  references: ReferenceRow[];
  /** For a run made with `eval --repeats N`: majority over the group's runs, best-of-runs, each run. */
  repeats: RepeatsSummary | null;
  items: ReportItem[];
  failed: Array<Pick<ReportItem, "item_id" | "claim_id" | "claim" | "error" | "attempts" | "debate_id">>;
};

/**
 * The claims a run is scored on: finished items with a gold label, a missing verdict counting as
 * UNPARSED. The report (with intervals) and the run list (point values) both score these with
 * `summarize`, so the two pages cannot show different numbers for the same run.
 */
export function scoreItems(
  rows: ReadonlyArray<{ status: string; gold: string | null; native_label?: string | null; label: string | null }>,
  scheme: LabelSchemeName | null = null,
  abstention: Abstention | null = null,
): LabeledItem[] {
  const out: LabeledItem[] = [];
  for (const r of rows) {
    const gold = abstention
      ? abstentionGold(abstention, r.gold, r.native_label ?? null)
      : scheme
        ? goldInScheme(scheme, r.gold, r.native_label ?? null)
        : r.gold;
    if (r.status === "done" && gold !== null) out.push({ gold, predicted: r.label ?? UNPARSED });
  }
  return out;
}

type RunLike = { protocol: string; config: Record<string, unknown> | null | undefined };

/**
 * The labels a run is scored on: the scheme its protocol was configured with (Tool-MAD's
 * `labels: "fever"`), else, for a protocol with a label that takes no side (PROClaim), the two
 * classes its reporting policy scores, else the protocol's own labels, else the product's.
 * RADAR's are the product's.
 */
export function runLabels(run: RunLike | undefined): {
  scheme: LabelSchemeName | null;
  labels: readonly string[];
  abstention?: Abstention;
  product?: boolean;
} {
  if (!run) return { scheme: PRODUCT_SCHEME, labels: VERDICT_LABELS };
  if (isProductScale(run.config)) {
    // The matrix chose the product scale: the labels are those the method's own labels map to.
    const own = runLabels({ protocol: run.protocol, config: { ...run.config, matrix: undefined, scoring: undefined } });
    return {
      scheme: null,
      labels: productLabelsOf(run.protocol, own.labels),
      abstention: own.abstention,
      product: true,
    };
  }
  const protocolConfig = run.config?.[run.protocol] as { labels?: unknown } | undefined;
  if (isLabelScheme(protocolConfig?.labels))
    return { scheme: protocolConfig.labels, labels: LABEL_SCHEMES[protocolConfig.labels] };
  const abstention = abstentionFor(run.protocol);
  if (abstention) return { scheme: null, labels: scoredLabels(abstention), abstention };
  let own: readonly string[] = VERDICT_LABELS;
  try {
    own = getProtocol(run.protocol).labels.labels;
  } catch {
    // A run of a protocol this build does not have: its labels cannot be known, the product's are used.
  }
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
  const scheme = (Object.keys(LABEL_SCHEMES) as LabelSchemeName[]).find((k) => same(LABEL_SCHEMES[k], own)) ?? null;
  return { scheme, labels: own };
}

/** The reporting policy a run was created with (`eval --inconclusive`), else the default. */
export function runPolicy(run: RunLike | undefined): InconclusivePolicy {
  const stored = (run?.config?.reporting as { inconclusive?: unknown } | undefined)?.inconclusive;
  return isInconclusivePolicy(stored) ? stored : DEFAULT_INCONCLUSIVE_POLICY;
}

/** The items a run is scored on with its policy applied, and what the policy did. */
export function scoreRun(
  rows: Parameters<typeof scoreItems>[0],
  run: RunLike | undefined,
  policy?: InconclusivePolicy,
) {
  const own = runLabels(run);
  if (own.product && run) {
    // Gold read on the product scale; the verdict read by the policy first (INCONCLUSIVE), then through the protocol's mapping.
    const raw = rows.flatMap((r) => {
      const gold = goldOnProductScale(r.gold, r.native_label ?? null);
      return r.status === "done" && gold !== null ? [{ gold, predicted: r.label ?? UNPARSED }] : [];
    });
    const applied = own.abstention
      ? applyPolicy(own.abstention, policy ?? runPolicy(run), raw)
      : { items: raw, outcome: null };
    return {
      ...own,
      labeled: applied.items.map((i) => ({ gold: i.gold, predicted: onProductScale(run.protocol, i.predicted)! })),
      inconclusive: applied.outcome,
    };
  }
  const raw = scoreItems(rows, own.scheme, own.abstention ?? null);
  if (!own.abstention) return { ...own, labeled: raw, inconclusive: null };
  const applied = applyPolicy(own.abstention, policy ?? runPolicy(run), raw);
  return { ...own, labeled: applied.items, inconclusive: applied.outcome };
}

/** Point values only (no bootstrap), for lists of runs; `run` picks the labels (default the product's). */
export function headlineScores(rows: Parameters<typeof scoreItems>[0], run?: RunLike) {
  const { labeled, labels } = scoreRun(rows, run);
  const s = summarize(labeled, labels);
  return { n: s.n, unparsed: countUnparsed(labeled, labels), accuracy: s.accuracy, macro_f1: s.macro_f1 };
}

/** On the product's scale; a label the protocol does not map (NEI, UNPARSED) has none. */
function toProduct(protocol: string, label: string | null): string | null {
  return label === null ? null : productLabel(protocol, label);
}

/** A counted verdict on the product scale when the run is scored there: UNPARSED stays, a label with none is never a class. */
function onProductScale(protocol: string, counted: string | null): string | null {
  if (counted === null || counted === UNPARSED) return counted;
  return productLabel(protocol, counted) ?? NO_PRODUCT_LABEL;
}

function productSummary(items: readonly ReportItem[]): NonNullable<EvalReport["product"]> {
  // A verdict the reporting policy leaves out (`exclude`) is left out here too.
  const done = items.filter((i) => i.status === "done" && i.gold !== null && i.counted_as !== null);
  const scored = done.filter((i) => i.gold_product !== null);
  const metrics = summarize(
    scored.map((i) => ({
      gold: i.gold_product!,
      predicted: i.predicted_product ?? (i.predicted === UNPARSED ? UNPARSED : NO_PRODUCT_LABEL),
    })),
    VERDICT_LABELS,
  );
  return {
    labels: VERDICT_LABELS,
    metrics,
    excluded_gold_without_product_label: done.length - scored.length,
    predicted_without_product_label: scored.filter((i) => i.predicted_product === null && i.predicted !== UNPARSED)
      .length,
  };
}

function toItem(
  r: q.RunItemRow,
  protocol: string,
  scheme: LabelSchemeName | null,
  reading: { abstention: Abstention; policy: InconclusivePolicy } | null = null,
  product = false,
): ReportItem {
  const finished = r.status === "done";
  const predicted = finished ? (r.label ?? UNPARSED) : null;
  const gold = product
    ? goldOnProductScale(r.gold, r.native_label)
    : reading
      ? abstentionGold(reading.abstention, r.gold, r.native_label)
      : scheme
        ? goldInScheme(scheme, r.gold, r.native_label)
        : r.gold;
  const policyRead =
    predicted === null ? null : reading ? countedAs(reading.abstention, reading.policy, predicted) : predicted;
  // On the product scale the verdict is scored as its product label, as scoreRun scores it.
  const counted = product ? onProductScale(protocol, policyRead) : policyRead;
  const latency =
    r.started_at && r.finished_at && finished
      ? new Date(r.finished_at).getTime() - new Date(r.started_at).getTime()
      : null;
  return {
    position: r.position,
    item_id: r.item_id,
    claim_id: r.dataset_claim_id ?? r.claim_id,
    claim: r.claim,
    gold,
    native_label: r.native_label,
    predicted,
    counted_as: counted,
    gold_product: product ? gold : toProduct(protocol, gold),
    // Read through the reporting policy like the scores, so both scales agree on INCONCLUSIVE.
    predicted_product: product ? (counted === NO_PRODUCT_LABEL ? null : counted) : toProduct(protocol, counted),
    correct: counted && gold ? counted === gold : null,
    status: r.status,
    error: r.error ?? r.debate_error?.message ?? null,
    attempts: r.attempts,
    debate_id: r.debate_id,
    rounds: r.rounds,
    stopped_early: r.stopped_early,
    stop_after: r.stop_after,
    llm_calls: r.calls,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
    cost_usd: r.unpriced_calls > 0 ? null : r.cost_usd,
    latency_ms: latency,
  };
}

export async function buildReport(
  db: Database,
  runId: string,
  opts: BootstrapOptions & { labels?: readonly string[]; inconclusive?: InconclusivePolicy } = {},
): Promise<EvalReport | null> {
  const run = await q.getRun(db, runId);
  if (!run) return null;
  const policy = opts.inconclusive ?? runPolicy(run);
  const [progress, rows] = await Promise.all([runProgress(db, runId), q.runItemRows(db, runId)]);
  const own = scoreRun(rows, run, policy);
  const labels = opts.labels ?? own.labels;
  const items = rows.map((r) =>
    toItem(r, run.protocol, own.scheme, own.abstention ? { abstention: own.abstention, policy } : null, !!own.product),
  );
  const labeled = own.labeled;
  const alreadyProduct =
    !!own.product ||
    own.scheme === PRODUCT_SCHEME ||
    (labels.length === VERDICT_LABELS.length && VERDICT_LABELS.every((l) => labels.includes(l)));
  const references = Array.isArray(run.config?.references) ? (run.config.references as ReferenceRow[]) : [];
  const metrics = summarizeWithCI(labeled, labels, opts);
  const finished = items.filter((i) => i.status === "done");
  const stop_rounds: Record<string, number> = {};
  for (const i of finished)
    if (i.rounds !== null) stop_rounds[String(i.rounds)] = (stop_rounds[String(i.rounds)] ?? 0) + 1;
  const byRounds = new Map<number, ReportItem[]>();
  for (const i of finished) {
    if (i.rounds === null) continue;
    const group = byRounds.get(i.rounds);
    if (group) group.push(i);
    else byRounds.set(i.rounds, [i]);
  }
  const costKnown = finished.every((i) => i.cost_usd !== null);
  const repeats = await repeatsOf(db, run, policy);
  return {
    run: {
      id: run.id,
      name: run.name,
      dataset: run.dataset,
      protocol: run.protocol,
      variant: run.variant,
      status: run.status,
      status_reason: run.statusReason,
      executor: run.executor,
      config: run.config,
      budget: run.budget ?? null,
      created_at: run.createdAt.toISOString(),
      started_at: run.startedAt?.toISOString() ?? null,
      finished_at: run.finishedAt?.toISOString() ?? null,
    },
    progress,
    scheme: own.scheme,
    scale: own.product ? "product" : "own",
    labels,
    metrics,
    verdicts: verdictHealth({ scored: metrics.n, unparsed: countUnparsed(labeled, labels), failed: progress.failed }),
    inconclusive: own.inconclusive,
    excluded: excludedItems(labeled, labels),
    cost: {
      per_claim: {
        llm_calls: distribution(finished.map((i) => i.llm_calls)),
        prompt_tokens: distribution(finished.map((i) => i.prompt_tokens)),
        completion_tokens: distribution(finished.map((i) => i.completion_tokens)),
        tokens: distribution(finished.map((i) => i.prompt_tokens + i.completion_tokens)),
        cost_usd: costKnown ? distribution(finished.map((i) => i.cost_usd!)) : null,
        latency_ms: distribution(finished.filter((i) => i.latency_ms !== null).map((i) => i.latency_ms!)),
      },
      unpriced_calls: progress.unpriced_calls,
    },
    stop_rounds,
    stopped_early: finished.filter((i) => i.stopped_early).length,
    by_rounds: [...byRounds.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([rounds, xs]) => {
        const scored = xs.filter((x) => x.gold && labels.includes(x.gold));
        return {
          rounds,
          n: xs.length,
          accuracy: scored.length ? scored.filter((x) => x.correct).length / scored.length : null,
          avg_tokens: xs.reduce((a, x) => a + x.prompt_tokens + x.completion_tokens, 0) / xs.length,
        };
      }),
    product: alreadyProduct ? null : productSummary(items),
    references,
    repeats,
    items,
    failed: items
      .filter((i) => i.status === "failed")
      .map((i) => ({
        item_id: i.item_id,
        claim_id: i.claim_id,
        claim: i.claim,
        error: i.error,
        attempts: i.attempts,
        debate_id: i.debate_id,
      })),
  };
}

/** The repeat group a run belongs to, aggregated; every run of the group reads the same way. */
async function repeatsOf(
  db: Database,
  run: NonNullable<Awaited<ReturnType<typeof q.getRun>>>,
  policy: InconclusivePolicy,
): Promise<RepeatsSummary | null> {
  const info = run.config?.repeat;
  if (!isRepeatInfo(info)) return null;
  const own = runLabels(run);
  const reading = own.abstention ? { abstention: own.abstention, policy } : null;
  const runs = await q.repeatGroupRuns(db, info.group);
  const list = await Promise.all(
    runs.map(async (r) => ({
      run_id: r.id,
      index: isRepeatInfo(r.config?.repeat) ? r.config.repeat.index : 0,
      status: r.status,
      items: (await q.runItemRows(db, r.id)).map((row) => {
        const it = toItem(row, r.protocol, own.scheme, reading);
        return {
          claim_id: it.claim_id,
          gold: it.gold,
          status: it.status,
          predicted: it.predicted,
          tokens: it.prompt_tokens + it.completion_tokens,
        };
      }),
    })),
  );
  return aggregateRepeats(info.group, info.of, list, {
    labels: own.labels,
    abstention: own.abstention ?? null,
    policy: own.abstention ? policy : null,
  });
}

// --- comparison ----------------------------------------------------------------------------

export type RunComparison = {
  a: { id: string; name: string };
  b: { id: string; name: string };
  shared: number;
  only_a: number;
  only_b: number;
  paired: PairedComparison;
};

/** Two runs on the claims both finished (matched on the stored claim), with paired tests. */
export async function compareRuns(
  db: Database,
  aId: string,
  bId: string,
  opts: BootstrapOptions = {},
): Promise<RunComparison> {
  const [a, b] = await Promise.all([buildReport(db, aId, { resamples: 1 }), buildReport(db, bId, { resamples: 1 })]);
  if (!a) throw new Error(`no evaluation run ${aId}`);
  if (!b) throw new Error(`no evaluation run ${bId}`);
  const key = (i: ReportItem) => `${a.run.dataset === b.run.dataset ? "" : "x"}${i.claim_id}`;
  const doneA = new Map(a.items.filter((i) => i.status === "done" && i.gold).map((i) => [key(i), i]));
  const doneB = new Map(b.items.filter((i) => i.status === "done" && i.gold).map((i) => [key(i), i]));
  const pairs = [...doneA.entries()]
    .filter(([k]) => doneB.has(k))
    .map(([k, ia]) => ({ gold: ia.gold!, a: ia.counted_as, b: doneB.get(k)!.counted_as }));
  return {
    a: { id: a.run.id, name: a.run.name },
    b: { id: b.run.id, name: b.run.name },
    shared: pairs.length,
    only_a: doneA.size - pairs.length,
    only_b: doneB.size - pairs.length,
    paired: comparePaired(pairs, a.labels, opts),
  };
}

// --- exports -------------------------------------------------------------------------------

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : (x * 100).toFixed(1));
const ci = (w: { value: number | null; ci: { low: number; high: number } | null }) =>
  w.value === null ? "—" : `${pct(w.value)} [${pct(w.ci?.low)}, ${pct(w.ci?.high)}]`;
const num = (x: number | null | undefined, d = 0) => (x === null || x === undefined ? "—" : x.toFixed(d));

/** The run's own method's settings in words (RADAR's early stopping); nothing for a method without any. */
function runSettings(run: { protocol: string; config: unknown }): string | null {
  const cfg = run.config as Record<string, unknown> | null;
  return (
    findMethod(run.protocol)?.runSettingsWords?.(cfg?.[run.protocol] as Record<string, unknown> | undefined) ?? null
  );
}

/** The line under a report's title: the run's method and only its own settings (a Tool-MAD run shows no early stopping). */
export function runHeaderLine(r: Pick<EvalReport, "run" | "scheme" | "labels" | "product">): string {
  const cfg = r.run.config as { evidence?: { mode: string; corpus?: string | null } };
  return `Run \`${r.run.id}\` · ${methodTitle(r.run.protocol)}${r.run.variant ? ` (${r.run.variant})` : ""} · dataset ${r.run.dataset ?? "—"} · evidence ${cfg.evidence?.mode ?? "—"}${cfg.evidence?.corpus ? ` (${cfg.evidence.corpus})` : cfg.evidence?.mode === "tools" ? " (RAG over every corpus)" : ""}${runSettings(r.run) ? ` · ${runSettings(r.run)}` : ""}${r.scheme && r.scheme !== PRODUCT_SCHEME ? ` · labels ${r.scheme} (${r.labels.join(" / ")})` : !r.scheme && r.product ? ` · labels ${r.labels.join(" / ")}` : ""} · status **${r.run.status}**${r.run.status_reason ? ` (${r.run.status_reason})` : ""}`;
}

export function reportMarkdown(r: EvalReport): string {
  const m = r.metrics;
  const p = r.progress;
  const cfg = r.run.config as {
    models?: Record<string, string>;
    evidence?: { mode: string; corpus?: string | null };
  };
  const lines = [
    `# ${r.run.name}`,
    "",
    runHeaderLine(r),
    "",
    `Models: ${Object.entries(cfg.models ?? {})
      .map(([role, id]) => `${role}=${id}`)
      .join(", ")}`,
    "",
    `Progress: ${p.done} done, ${p.failed} failed, ${p.running} running, ${p.pending} pending of ${p.total}; ${plural(p.calls, "LLM call")}, ${plural(p.tokens, "token")}, cost ${p.cost_usd === null ? "unknown" : `$${p.cost_usd.toFixed(4)}`}${p.unpriced_calls ? ` (${plural(p.unpriced_calls, "call")} unpriced)` : ""}.`,
    "",
    ...(healthWarning(r.verdicts)
      ? [`**${r.verdicts.unreadable ? "Warning" : "Note"}:** ${healthWarning(r.verdicts)}`, ""]
      : []),
    `## Metrics (${plural(m.n, "scored claim")}, ${plural(m.unparsed, "unparsed verdict")} counted as wrong; ${Math.round(m.bootstrap.level * 100)}% bootstrap intervals, ${m.bootstrap.resamples} resamples, seed ${m.bootstrap.seed})`,
    "",
    ...(r.scheme && r.scheme !== PRODUCT_SCHEME
      ? [
          `Accuracy is exact match on the protocol's own labels (${r.labels.join(" / ")}), as the paper reports it; the gold labels were read into that scheme.`,
          "",
        ]
      : []),
    // A protocol with labels of its own that no scheme shares (ZoFia's REAL / FAKE): scored on them as they are.
    ...(!r.scheme && r.product && !r.inconclusive
      ? [
          `Accuracy and macro-F1 are on the protocol's own labels (${r.labels.join(" / ")}), as the paper reports them; the product scale follows below.`,
          "",
        ]
      : []),
    ...(r.scale === "product"
      ? [
          `${PRODUCT_SCALE_SENTENCE} Labels scored: ${r.labels.join(" / ")}; claims whose gold has no product label, or one this method never gives, are not scored.${r.inconclusive ? ` ${policySentence(r.inconclusive)}` : ""}`,
          "",
        ]
      : []),
    ...(r.inconclusive && r.scale !== "product"
      ? [
          `Accuracy and macro-F1 are on ${r.labels.join(" / ")}, as the paper reports them. ${policySentence(r.inconclusive)}`,
          "",
        ]
      : []),
    "| metric | value |",
    "|---|---|",
    `| accuracy | ${ci(m.accuracy)} |`,
    `| accuracy without unparsed | ${ci(m.accuracy_parsed)} |`,
    `| macro-F1 | ${ci(m.macro_f1)} |`,
    "",
    "| class | precision | recall | F1 | support | predicted |",
    "|---|---|---|---|---|---|",
    ...r.labels.map((l) => {
      const c = m.per_class[l]!;
      return `| ${l} | ${ci(c.precision)} | ${ci(c.recall)} | ${ci(c.f1)} | ${c.support} | ${c.predicted} |`;
    }),
    "",
    "Confusion matrix (rows gold, columns predicted):",
    "",
    `| gold \\ predicted | ${[...r.labels, UNPARSED].join(" | ")} |`,
    `|---|${[...r.labels, UNPARSED].map(() => "---").join("|")}|`,
    ...r.labels.map(
      (g) =>
        `| ${g} | ${[...r.labels, UNPARSED].map((pl) => `${m.confusion[g]![pl]!.value} [${num(m.confusion[g]![pl]!.ci?.low)}, ${num(m.confusion[g]![pl]!.ci?.high)}]`).join(" | ")} |`,
    ),
  ];
  if (Object.keys(r.excluded).length) {
    lines.push(
      "",
      "Outside the label set (not scored):",
      "",
      ...Object.entries(r.excluded).map(
        ([g, preds]) =>
          `- ${g}: ${Object.entries(preds)
            .map(([pl, n]) => `${pl} ${n}`)
            .join(", ")}`,
      ),
    );
  }
  lines.push(...referenceLines(r), ...repeatLines(r), ...productLines(r));
  const c = r.cost.per_claim;
  lines.push(
    "",
    "## Cost per claim",
    "",
    "| measure | mean | median | p95 | total |",
    "|---|---|---|---|---|",
    `| LLM calls | ${num(c.llm_calls.mean, 1)} | ${num(c.llm_calls.median, 1)} | ${num(c.llm_calls.p95, 1)} | ${c.llm_calls.total} |`,
    `| prompt tokens | ${num(c.prompt_tokens.mean)} | ${num(c.prompt_tokens.median)} | ${num(c.prompt_tokens.p95)} | ${c.prompt_tokens.total} |`,
    `| completion tokens | ${num(c.completion_tokens.mean)} | ${num(c.completion_tokens.median)} | ${num(c.completion_tokens.p95)} | ${c.completion_tokens.total} |`,
    `| cost (USD) | ${c.cost_usd ? num(c.cost_usd.mean, 5) : "unknown"} | ${c.cost_usd ? num(c.cost_usd.median, 5) : "—"} | ${c.cost_usd ? num(c.cost_usd.p95, 5) : "—"} | ${c.cost_usd ? num(c.cost_usd.total, 4) : "—"} |`,
    `| latency (ms) | ${num(c.latency_ms.mean)} | ${num(c.latency_ms.median)} | ${num(c.latency_ms.p95)} | — |`,
    "",
    `Debates ending after n rounds: ${
      Object.entries(r.stop_rounds)
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ") || "—"
    } (${r.stopped_early} stopped early).`,
  );
  if (r.failed.length) {
    lines.push(
      "",
      `## Failed items (${r.failed.length})`,
      "",
      "| claim | error | attempts | debate |",
      "|---|---|---|---|",
      ...r.failed.map(
        (f) =>
          `| ${f.claim_id} | ${(f.error ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ")} | ${f.attempts} | ${f.debate_id ?? "—"} |`,
      ),
    );
  }
  return lines.join("\n") + "\n";
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_COLUMNS = [
  "position",
  "claim_id",
  "claim",
  "gold",
  "native_label",
  "predicted",
  "counted_as",
  "correct",
  "status",
  "error",
  "attempts",
  "debate_id",
  "rounds",
  "stopped_early",
  "stop_after",
  "llm_calls",
  "prompt_tokens",
  "completion_tokens",
  "cost_usd",
  "latency_ms",
  "gold_product",
  "predicted_product",
] as const;

/**
 * One row per claim: what spreadsheets and other tools need to recompute anything. The paper's
 * reference numbers follow as `#` comment lines, so they travel with the file and no tool reading
 * the rows mistakes them for claims.
 */
export function reportCsv(r: EvalReport): string {
  const refs = r.references.map(
    (x) =>
      `# paper's number, not this run: ${x.source} · ${x.system} · ${x.model} · ${x.dataset} · n=${x.n ?? "?"} · ${x.metric} ${pct(x.value)}${x.note ? ` · ${x.note}` : ""}`,
  );
  const ours = r.references.length
    ? [
        `# this run: accuracy ${pct(r.metrics.accuracy.value)} · macro-F1 ${pct(r.metrics.macro_f1.value)} · n=${r.metrics.n}`,
      ]
    : [];
  return (
    [
      CSV_COLUMNS.join(","),
      ...r.items.map((i) => CSV_COLUMNS.map((c) => csvCell(i[c])).join(",")),
      ...ours,
      ...refs,
    ].join("\n") + "\n"
  );
}

/** The paper's rows beside ours, each marked as the paper's with its dataset, model and n. */
function referenceLines(r: EvalReport): string[] {
  if (!r.references.length) return [];
  const cfg = r.run.config as { models?: Record<string, string>; caveat?: unknown };
  const models = [...new Set(Object.values(cfg.models ?? {}))].join(", ") || "—";
  const caveat = typeof cfg.caveat === "string" && cfg.caveat ? [`Not the paper's setting: ${cfg.caveat}`, ""] : [];
  // A tokens column only where the paper gives tokens per claim (PROClaim), so other reports read as before.
  const tokens = r.references.some((x) => x.tokensPerClaim !== undefined);
  const ours = r.cost.per_claim.tokens.mean;
  return [
    "",
    "## Beside the paper (the paper's numbers are reported, not reproduced here)",
    "",
    ...caveat,
    `| who | system | model | dataset | n | accuracy | macro-F1 |${tokens ? " tokens per claim |" : ""}`,
    `|---|---|---|---|---|---|---|${tokens ? "---|" : ""}`,
    `| **this run** | ${r.run.protocol}${r.run.variant ? `/${r.run.variant}` : ""} | ${models} | ${r.run.dataset ?? "—"} | ${r.metrics.n} | ${pct(r.metrics.accuracy.value)} | ${pct(r.metrics.macro_f1.value)} |${tokens ? ` ${tokensCell(ours)} |` : ""}`,
    ...r.references.map(
      (x) =>
        `| paper: ${x.source} | ${x.system} | ${x.model} | ${x.dataset} | ${x.n ?? "?"} | ${x.metric === "accuracy" ? pct(x.value) : "—"} | ${x.metric === "macro_f1" ? pct(x.value) : "—"} |${tokens ? ` ${tokensCell(x.tokensPerClaim)} |` : ""}${x.note ? ` ${x.note}` : ""}`,
    ),
  ];
}

const tokensCell = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : Math.round(x).toLocaleString("en-US");

/** The group of repeated runs: majority (the paper's main setting), best-of (oracle), each run, tokens per claim. */
function repeatLines(r: EvalReport): string[] {
  const g = r.repeats;
  if (!g) return [];
  const paper = (aggregate: string) => r.references.find((x) => x.aggregate === aggregate && x.metric === "accuracy");
  const maj = paper("majority");
  const best = paper("best-of");
  const tie = g.policy
    ? `ties (${g.majority.ties}) are ${g.tie_label}, then read by the policy "${g.policy}"`
    : `ties (${g.majority.ties}) count as ${g.tie_label}`;
  return [
    "",
    `## Over ${g.of} runs of the same claims (repeat group \`${g.group}\`)`,
    "",
    `Majority over runs: each claim's verdict is the most frequent stored label among the runs that finished it (unparsed is no vote); ${tie}${g.majority.excluded ? `; ${plural(g.majority.excluded, "claim")} left out by the policy` : ""}. Best-of-runs is an oracle: a claim counts as right when any run got it right (an upper bound, not a result).${g.incomplete ? ` ${plural(g.incomplete, "claim")} scored with fewer than ${g.of} finished runs.` : ""}`,
    "",
    "| aggregate | n | accuracy | macro-F1 | tokens per claim (one run) | paper accuracy | paper tokens per claim |",
    "|---|---|---|---|---|---|---|",
    `| majority of ${g.of} runs | ${g.majority.n} | ${pct(g.majority.accuracy)} | ${pct(g.majority.macro_f1)} | ${tokensCell(g.tokens.per_debate)} | ${maj ? pct(maj.value) : "—"} | ${tokensCell(maj?.tokensPerClaim)} |`,
    `| best of ${g.of} (oracle) | ${g.best_of.n} | ${pct(g.best_of.accuracy)} | — | — | ${best ? pct(best.value) : "—"} | — |`,
    ...g.runs.map(
      (x) =>
        `| run ${x.index} (\`${x.run_id}\`, ${x.status}) | ${x.n} | ${pct(x.accuracy)} | ${pct(x.macro_f1)} | ${tokensCell(x.mean_tokens_per_claim)} | — | — |`,
    ),
    `| mean of runs | — | ${pct(g.mean_run_accuracy)} | — | — | — | — |`,
    "",
    `Tokens: ${tokensCell(g.tokens.per_debate)} per claim per run, ${tokensCell(g.tokens.per_claim_all_runs)} per claim over all ${g.of} runs.`,
  ];
}

function productLines(r: EvalReport): string[] {
  if (!r.product) return [];
  const m = r.product.metrics;
  return [
    "",
    `## On the product's scale (TRUE / HALF-TRUE / FALSE, through the protocol's label mapping: ${r.labels.map((l) => `${l} → ${productLabel(r.run.protocol, l) ?? "none"}`).join(", ")})`,
    "",
    `${plural(m.n, "claim")} scored; ${plural(r.product.excluded_gold_without_product_label, "claim")} left out because the gold label has no product label (e.g. NOT ENOUGH INFO); ${plural(r.product.predicted_without_product_label, "prediction")} with no product label counted as wrong; ${plural(m.unparsed, "unparsed or unmapped verdict")} in all.`,
    "",
    `| accuracy | macro-F1 |`,
    `|---|---|`,
    `| ${pct(m.accuracy)} | ${pct(m.macro_f1)} |`,
    "",
    "| class | precision | recall | F1 | support |",
    "|---|---|---|---|---|",
    ...r.product.labels.map((l) => {
      const c = m.per_class[l]!;
      return `| ${l} | ${pct(c.precision)} | ${pct(c.recall)} | ${pct(c.f1)} | ${c.support} |`;
    }),
  ];
}

export function comparisonMarkdown(c: RunComparison): string {
  const p = c.paired;
  return (
    [
      `# ${c.a.name} vs ${c.b.name}`,
      "",
      `${plural(c.shared, "claim")} finished in both runs (${c.only_a} only in A, ${c.only_b} only in B).`,
      "",
      "| | A | B | A − B [95% paired bootstrap] | p |",
      "|---|---|---|---|---|",
      `| accuracy | ${pct(p.accuracy_a)} | ${pct(p.accuracy_b)} | ${ci(p.accuracy_diff)} | ${num(p.accuracy_diff.p_value, 3)} |`,
      `| macro-F1 | ${pct(p.macro_f1_a)} | ${pct(p.macro_f1_b)} | ${ci(p.macro_f1_diff)} | ${num(p.macro_f1_diff.p_value, 3)} |`,
      "",
      `McNemar (exact): ${plural(p.only_a_correct, "claim")} only A got right, ${p.only_b_correct} only B; p = ${p.mcnemar.p_value.toFixed(4)}.`,
    ].join("\n") + "\n"
  );
}
