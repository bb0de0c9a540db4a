import { findMethod } from "@/lib/debate/methods";
import { randomUUID } from "node:crypto";
import type { DbHandle } from "@/db/client";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { LABEL_SCHEME_NAMES, LABEL_SCHEMES, type LabelSchemeName } from "@/lib/datasets/label-schemes";
import { getProtocol, productLabel } from "@/lib/debate/protocols";
import type { EvalExecutor } from "./executor";
import { PRESETS, type ReferenceRow } from "./presets";
import { PRODUCT_SCALE, whyNotScored } from "./product-scale";
import { createAndQueueRun } from "./queue";
import { scoreRun } from "./report";
import type { MatchDecision } from "@/lib/matching/types";
import { estimateRun, matchRunClaim, type CreateRunInput, type CreatedRun, type RunEstimate } from "./run";
import { selectClaims, type SampleOptions } from "./sample";

/**
 * An evaluation matrix (`eval --protocols a,b,c`): one run per protocol over the SAME claims,
 * selected once here and handed to every run, linked by `config.matrix = {group, protocol, index,
 * of, scoring}` (as repeats are by `config.repeat`; no schema change). Every run is scored by its
 * own report on the dataset's gold labels read into the protocol's labels; a protocol none of whose
 * claims can be scored that way is scored on the product scale (TRUE / HALF-TRUE / FALSE, both
 * sides translated), and refused before anything is stored only when not one claim can be scored there.
 */

/** How a run's verdicts meet the dataset's gold labels: stored in the group so the leaderboard can say it. */
export type MatrixScoring = {
  /** The labels the run's report scores on. */
  labels: string[];
  /** In plain words: which labels, and how the gold was read into them. */
  how: string;
  /** Claims of the selection whose gold label reads into `labels`, and those that do not (by gold label). */
  scored: number;
  unscored: Record<string, number>;
  /**
   * "product" when the method's own labels read none of the gold labels and the run is scored on
   * TRUE / HALF-TRUE / FALSE instead (lib/eval/product-scale.ts); the run's report reads this.
   */
  scale?: "product";
  /** Why each unscored gold label is not scored, in plain words (product scale only). */
  why?: Record<string, string>;
};

export type MatrixInfo = {
  group: string;
  protocol: string;
  index: number;
  of: number;
  dataset: string;
  claims: number;
  sample: SampleOptions;
  scoring: MatrixScoring;
};

export function isMatrixInfo(v: unknown): v is MatrixInfo {
  const m = v as MatrixInfo | null;
  return (
    !!m &&
    typeof m === "object" &&
    typeof m.group === "string" &&
    typeof m.protocol === "string" &&
    Number.isInteger(m.index) &&
    Number.isInteger(m.of)
  );
}

/** One protocol's run, before the shared claims are given to it. */
export type MatrixEntry = Omit<CreateRunInput, "executor" | "claims" | "dataset" | "sample" | "repeat"> & {
  executor?: CreateRunInput["executor"];
};

export type MatrixPlan = {
  dataset: string;
  sample: SampleOptions;
  claimsInFile: number;
  /** The claims every run debates, in the order they were selected. */
  selected: ClaimRecord[];
  runs: Array<{ entry: MatrixEntry & { config: Record<string, unknown> }; scoring: MatrixScoring }>;
  refused: Array<{ protocol: string; reason: string }>;
};

const nativeOf = (rec: ClaimRecord): string | null => {
  const m = rec.metadata ?? {};
  const v = m.native_label ?? m.nativeLabel;
  return typeof v === "string" ? v : null;
};

/** What the run's report will score, read claim by claim with the report's own code (scoreRun), so the plan and the report cannot disagree. */
function scoringOf(
  protocol: string,
  config: Record<string, unknown>,
  claims: readonly ClaimRecord[],
  product = false,
): { labels: string[]; scored: number; unscored: Record<string, number>; abstention: boolean } {
  const run = {
    protocol,
    config: { [protocol]: config, ...(product ? { matrix: { scoring: { scale: PRODUCT_SCALE } } } : {}) },
  };
  const unscored: Record<string, number> = {};
  let scored = 0;
  let labels: readonly string[] = [];
  let abstention = false;
  for (const c of claims) {
    const s = scoreRun([{ status: "done", gold: c.label ?? null, native_label: nativeOf(c), label: null }], run);
    labels = s.labels;
    abstention = !!s.abstention;
    const g = s.labeled[0]?.gold;
    if (g !== undefined && s.labels.includes(g)) scored++;
    else unscored[c.label ?? "(no label)"] = (unscored[c.label ?? "(no label)"] ?? 0) + 1;
  }
  return { labels: [...labels], scored, unscored, abstention };
}

const list = (xs: readonly string[]) => xs.join(" / ");

/** Why a protocol whose labels read none of the gold labels is refused, with what would work. */
function refusal(protocol: string, dataset: string, gold: string[], labels: string[], product: string[]): string {
  const def = findMethod(protocol);
  const base = `${def?.title ?? protocol} cannot be scored on ${dataset}: it answers ${list(labels)}, none of the dataset's gold labels (${list(gold)}) reads as one, and none reads as a product label it can give (${list(product)}) either.`;
  if (def?.datasetAdvice) return `${base} ${def.datasetAdvice}`;
  return `${base} Leave ${protocol} out of --protocols, or use a dataset with such labels.`;
}

/** The schemes Tool-MAD may answer in, smallest first: the first that scores every claim is the compatible configuration. */
const TOOL_MAD_SCHEMES = [...LABEL_SCHEME_NAMES].sort((a, b) => LABEL_SCHEMES[a].length - LABEL_SCHEMES[b].length);

/**
 * Selects the claims once and decides, per protocol, the labels its run is scored on. A protocol
 * with a label setting (Tool-MAD's `labels`) given none explicitly gets the smallest scheme that
 * reads every gold label (else the one reading most); `explicitLabels` lists the protocols whose
 * setting was chosen by the user or a preset and is kept as it is.
 */
export function planMatrix(input: {
  dataset: string;
  claims: readonly ClaimRecord[];
  sample?: SampleOptions;
  entries: MatrixEntry[];
  explicitLabels?: ReadonlySet<string>;
}): MatrixPlan {
  const seen = new Set<string>();
  for (const e of input.entries) {
    if (seen.has(e.protocol))
      throw new Error(`--protocols names ${e.protocol} twice; each protocol runs once in a matrix.`);
    seen.add(e.protocol);
  }
  const sample = input.sample ?? {};
  const selected = selectClaims(input.claims, sample);
  if (selected.length === 0) throw new Error("no claims to evaluate: the dataset or the sample is empty");
  const gold = [...new Set(selected.map((c) => c.label ?? "(no label)"))].sort();
  const runs: MatrixPlan["runs"] = [];
  const refused: MatrixPlan["refused"] = [];
  for (const entry of input.entries) {
    const protocol = getProtocol(entry.protocol);
    let config = protocol.parseConfig(entry.config) as Record<string, unknown>;
    const hasScheme = "labels" in config && LABEL_SCHEME_NAMES.includes(config.labels as LabelSchemeName);
    if (hasScheme && !input.explicitLabels?.has(entry.protocol)) {
      const tries = TOOL_MAD_SCHEMES.map((scheme) => ({
        scheme,
        s: scoringOf(
          entry.protocol,
          protocol.parseConfig({ ...entry.config, labels: scheme }) as Record<string, unknown>,
          selected,
        ),
      }));
      const best =
        tries.find((t) => t.s.scored === selected.length) ?? [...tries].sort((a, b) => b.s.scored - a.s.scored)[0]!;
      config = protocol.parseConfig({ ...entry.config, labels: best.scheme }) as Record<string, unknown>;
    }
    const native = scoringOf(entry.protocol, config, selected);
    if (native.scored === 0) {
      // Its labels read none of the gold: scored on the product scale, refused only if that scores nothing either.
      const s = scoringOf(entry.protocol, config, selected, true);
      if (s.scored === 0) {
        refused.push({
          protocol: entry.protocol,
          reason: refusal(entry.protocol, input.dataset, gold, native.labels, s.labels),
        });
        continue;
      }
      const why: Record<string, string> = {};
      for (const c of selected) {
        const reason = whyNotScored(s.labels, c.label ?? null, nativeOf(c));
        if (reason) why[c.label ?? "(no label)"] = reason;
      }
      const mapping = native.labels.map((l) => `${l} → ${productLabel(entry.protocol, l) ?? "none"}`).join(", ");
      const left = Object.entries(s.unscored);
      const article = findMethod(entry.protocol)?.matrixNote ?? "";
      runs.push({
        entry: { ...entry, config },
        scoring: {
          labels: s.labels,
          scored: s.scored,
          unscored: s.unscored,
          scale: PRODUCT_SCALE,
          why,
          how: `on the product scale (${list(s.labels)}): its own labels read as ${mapping}, the gold read the same way${article}${left.length ? `; not scored: ${left.map(([g, n]) => `${n} ${g} (${why[g] ?? "no reading"})`).join(", ")}` : ""}`,
        },
      });
      continue;
    }
    const s = native;
    const how = hasScheme
      ? `its ${String(config.labels).toUpperCase()} labels (${list(s.labels)}), the gold read into them${input.explicitLabels?.has(entry.protocol) ? " (as configured)" : " (chosen to fit the dataset)"}`
      : s.abstention
        ? `${list(s.labels)}, the gold read into them; INCONCLUSIVE counted by the run's reporting policy`
        : `its own labels (${list(s.labels)}), the gold as stored`;
    const left = Object.entries(s.unscored);
    runs.push({
      entry: { ...entry, config },
      scoring: {
        labels: s.labels,
        scored: s.scored,
        unscored: s.unscored,
        how: left.length
          ? `${how}; not scored: ${left.map(([g, n]) => `${n} ${g}`).join(", ")} (no reading in these labels)`
          : how,
      },
    });
  }
  return { dataset: input.dataset, sample, claimsInFile: input.claims.length, selected, runs, refused };
}

/** The cost preview of a whole matrix: each run's own preview, summed (null cost when any is unknown). */
export function estimateMatrix(plan: MatrixPlan): {
  perRun: Array<{ protocol: string; estimate: RunEstimate | null }>;
  llmCalls: number;
  toolCalls: number;
  tokens: number;
  costUsd: number | null;
  unknown: string[];
} {
  const perRun = plan.runs.map((r) => ({
    protocol: r.entry.protocol,
    estimate: estimateRun({
      protocol: r.entry.protocol,
      config: r.entry.config,
      models: r.entry.models,
      claims: plan.selected,
      sample: {},
    }),
  }));
  let cost: number | null = 0;
  const unknown: string[] = [];
  for (const r of perRun) {
    if (!r.estimate || r.estimate.costUsd === null) {
      unknown.push(r.protocol);
      cost = null;
    } else if (cost !== null) cost += r.estimate.costUsd;
  }
  return {
    perRun,
    llmCalls: perRun.reduce((a, r) => a + (r.estimate?.llmCalls ?? 0), 0),
    toolCalls: perRun.reduce((a, r) => a + (r.estimate?.toolCalls ?? 0), 0),
    tokens: perRun.reduce((a, r) => a + (r.estimate ? r.estimate.promptTokens + r.estimate.completionTokens : 0), 0),
    costUsd: cost,
    unknown,
  };
}

/** The papers' rows for a protocol on this dataset: every preset of the protocol whose dataset it is. */
export function referencesFor(protocol: string, dataset: string): ReferenceRow[] {
  const rows: ReferenceRow[] = [];
  const key = (r: ReferenceRow) => `${r.source}|${r.system}|${r.model}|${r.dataset}|${r.metric}|${r.value}`;
  const seen = new Set<string>();
  for (const p of Object.values(PRESETS)) {
    const storedAs = "storeAs" in p ? p.storeAs : undefined;
    if (p.protocol !== protocol || (p.dataset !== dataset && storedAs !== dataset)) continue;
    for (const r of p.references as readonly ReferenceRow[]) {
      if (seen.has(key(r))) continue;
      seen.add(key(r));
      rows.push(r);
    }
  }
  return rows;
}

export type CreatedMatrix = {
  group: string;
  runs: Array<{ protocol: string; created: CreatedRun; executor: EvalExecutor }>;
};

/** Creates and queues one run per planned protocol, all over `plan.selected`; refuses the matrix if any protocol was refused. */
export async function createMatrix(
  h: DbHandle,
  plan: MatrixPlan,
  opts: Parameters<typeof createAndQueueRun>[2] & { group?: string } = {},
): Promise<CreatedMatrix> {
  if (plan.refused.length) throw new Error(plan.refused.map((r) => r.reason).join("\n"));
  const group = opts.group ?? randomUUID();
  const runs: CreatedMatrix["runs"] = [];
  // With --match-claims every run stores the same decision per claim: each claim is matched once
  // (the runs share the plan's claim records), not once per protocol.
  const decided = new Map<ClaimRecord, Promise<MatchDecision>>();
  const matchClaim =
    opts.matchClaim ??
    ((rec: ClaimRecord) => {
      let d = decided.get(rec);
      if (!d) decided.set(rec, (d = matchRunClaim(h.db, rec)));
      return d;
    });
  const of = plan.runs.length;
  for (const [i, r] of plan.runs.entries()) {
    const matrix: MatrixInfo = {
      group,
      protocol: r.entry.protocol,
      index: i + 1,
      of,
      dataset: plan.dataset,
      claims: plan.selected.length,
      sample: plan.sample,
      scoring: r.scoring,
    };
    const made = await createAndQueueRun(
      h,
      {
        ...r.entry,
        name: r.entry.name ? `${r.entry.name} · ${r.entry.protocol}` : undefined,
        dataset: plan.dataset,
        claims: plan.selected,
        sample: {},
        // Stored beside the run's own settings: reports ignore keys they do not know.
        matrix,
      },
      { ...opts, matchClaim },
    );
    runs.push({ protocol: r.entry.protocol, ...made });
  }
  return { group, runs };
}
