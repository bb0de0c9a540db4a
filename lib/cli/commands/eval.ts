import { findMethod, methodVariants } from "@/lib/debate/methods";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { plural } from "@/lib/plural";
import path from "node:path";
import cliProgress from "cli-progress";
import { InvalidArgumentError, type Command } from "commander";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb, type DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { resetFailedItems, setRunStatus } from "@/db/queries/eval";
import { findCorpus } from "@/db/queries/corpus";
import { loadClaims, type ClaimRecord } from "@/lib/datasets/claims";
import { DEFAULT_PROTOCOL, getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import type { EvalExecutor } from "@/lib/eval/executor";
import { createAndQueueRun, queueRun } from "@/lib/eval/queue";
import { OPERATOR } from "@/lib/debate/start-service";
import { installedResolverFactory } from "@/lib/eval/model-override";
import { PRESET_NAMES, PRESETS, type Preset, type PresetName } from "@/lib/eval/presets";
import {
  buildReport,
  compareRuns,
  comparisonMarkdown,
  reportCsv,
  reportMarkdown,
  runProgress,
  type EvalReport,
  type Progress,
} from "@/lib/eval/report";
import {
  estimateRun,
  type CreateRunInput,
  type EvidenceSpec,
  type ExecutorKind,
  type RunEstimate,
} from "@/lib/eval/run";
import { scoresFromRun } from "@/lib/eval/run-scores";
import { INCONCLUSIVE_POLICIES, type InconclusivePolicy } from "@/lib/eval/inconclusive";
import { evalRunList } from "@/lib/eval/view";
import {
  createMatrix,
  estimateMatrix,
  planMatrix,
  referencesFor,
  type MatrixEntry,
  type MatrixPlan,
} from "@/lib/eval/matrix";
import { buildLeaderboard, leaderboardCsv, leaderboardJson, leaderboardMarkdown } from "@/lib/eval/leaderboard";
import { listMatrixGroups } from "@/db/queries/eval-matrix";
import { PRODUCT_SCALE, PRODUCT_SCALE_SENTENCE } from "@/lib/eval/product-scale";
import { planSingleRun, unscoredMessage, unscoredNotice, unscoredOf } from "@/lib/eval/unscored";
import { applyLabelMap, readLabelMap } from "@/lib/datasets/label-map";
import { installedDataFor } from "@/lib/datasets/download";
import { bold, dim, emit, green, red, yellow } from "../output";
import { healthCounts, healthWarning } from "@/lib/eval/verdict-health";
import { CLAIM_DATASETS, convertDataset, oneOf, type ClaimDatasetName } from "./dataset";
import { positiveInt } from "./search";

const collect = (value: string, previous: string[]) => [...previous, value];
const jsonObject = (v: string): Record<string, unknown> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch (e) {
    throw new InvalidArgumentError(
      `not JSON (${(e as Error).message}); expected an object such as '{"labels":"fever"}'`,
    );
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new InvalidArgumentError(`expected a JSON object such as '{"labels":"fever"}'`);
  return parsed as Record<string, unknown>;
};
/** A comma-separated list of names from `allowed`, each checked, none twice. */
function commaList<T extends string>(allowed: readonly T[]) {
  return (v: string): T[] => {
    const names = v
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean);
    if (!names.length) throw new InvalidArgumentError(`expected a comma-separated list of: ${allowed.join(", ")}`);
    for (const n of names)
      if (!allowed.includes(n as T)) throw new InvalidArgumentError(`"${n}" is not one of: ${allowed.join(", ")}`);
    if (new Set(names).size !== names.length) throw new InvalidArgumentError("a name is given twice");
    return names as T[];
  };
}
const nonNegative = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError("expected a number >= 0");
  return n;
};

export function parseModels(list: string[]): Record<string, string> {
  const models: Record<string, string> = {};
  for (const m of list) {
    const eq = m.indexOf("=");
    if (eq < 1) throw new Error(`--model takes role=id, got "${m}"`);
    models[m.slice(0, eq)] = m.slice(eq + 1);
  }
  return models;
}

const duration = (sec: number | null) =>
  sec === null
    ? "?"
    : sec >= 3600
      ? `${(sec / 3600).toFixed(1)} h`
      : sec >= 60
        ? `${Math.round(sec / 60)} min`
        : `${Math.round(sec)} s`;
const money = (x: number | null) => (x === null ? "cost unknown" : `$${x.toFixed(4)}`);

export function progressLine(p: Progress) {
  return `${p.done + p.failed}/${p.total} · ${p.done} done · ${p.failed} failed · ${p.running} running · ETA ${duration(p.eta_seconds)} · ${plural(p.tokens, "token")} · ${money(p.cost_usd)}`;
}

/**
 * Shows a run's progress until it has nothing left, read from the database so the numbers are
 * the same whichever workers (here or elsewhere) do the work. A bar on a terminal, lines otherwise.
 */
async function watch(h: DbHandle, runId: string, until: Promise<void>, json: boolean) {
  const out = process.stderr;
  const tty = out.isTTY && !json;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format:
            "{bar} {value}/{total} · {done} done · {failed} failed · {running} running · ETA {eta_h} · {tokens} tokens · {cost}",
          stream: out,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let finished = false;
  void until.finally(() => (finished = true));
  let last = "";
  let started = false;
  for (;;) {
    const p = await runProgress(h.db, runId);
    const payload = {
      done: p.done,
      failed: p.failed,
      running: p.running,
      eta_h: duration(p.eta_seconds),
      tokens: p.tokens,
      cost: money(p.cost_usd),
    };
    if (bar) {
      if (!started) bar.start(p.total, p.done + p.failed, payload);
      else bar.update(p.done + p.failed, payload);
      started = true;
    } else {
      const line = progressLine(p);
      if (line !== last) out.write(`${dim(line)}\n`);
      last = line;
    }
    if (finished) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  bar?.stop();
}

function printReport(r: EvalReport, json: boolean) {
  emit(json, r, () => {
    const m = r.metrics;
    const status =
      r.run.status === "completed"
        ? green(r.run.status)
        : r.run.status === "paused"
          ? yellow(r.run.status)
          : r.run.status;
    return [
      reportMarkdown(r).trimEnd(),
      "",
      `${bold("run")} ${r.run.id} · ${status}${r.run.status_reason ? ` · ${r.run.status_reason}` : ""} · accuracy ${m.accuracy.value === null ? "—" : (m.accuracy.value * 100).toFixed(1)} · macro-F1 ${m.macro_f1.value === null ? "—" : (m.macro_f1.value * 100).toFixed(1)}${healthCounts(r.verdicts) ? ` · ${healthCounts(r.verdicts)}` : ""}`,
      ...(r.verdicts.unreadable ? [red(healthWarning(r.verdicts)!)] : []),
      dim(
        `Open /eval/${r.run.id} in the app; export with: npx counterpoint eval report ${r.run.id} --format md|csv|json`,
      ),
    ].join("\n");
  });
}

/**
 * Works the run here until nothing is left, showing progress; Ctrl-C stops taking new claims.
 * Repeats (`--repeats`) are worked one run after the other, `then` holding the later ones; the
 * report is the first run's, which aggregates the whole group.
 */
async function workAndReport(
  h: DbHandle,
  executor: EvalExecutor,
  runId: string,
  opts: {
    concurrency: number;
    json: boolean;
    resamples?: number;
    seed?: number;
    inconclusive?: InconclusivePolicy;
    then?: Array<{ runId: string; executor: EvalExecutor }>;
  },
) {
  for (const next of [{ runId, executor }, ...(opts.then ?? [])]) {
    if (!(await workRun(h, next.executor, next.runId, opts))) {
      for (const rest of opts.then ?? [])
        if (rest.runId !== next.runId) await rest.executor.close().catch(() => undefined);
      break;
    }
  }
  const report = (await buildReport(h.db, runId, {
    resamples: opts.resamples,
    seed: opts.seed,
    inconclusive: opts.inconclusive,
  }))!;
  printReport(report, opts.json);
}

/** Works one run until nothing is left; false when Ctrl-C stopped it (later repeats are not started). */
async function workRun(
  h: DbHandle,
  executor: EvalExecutor,
  runId: string,
  opts: { concurrency: number; json: boolean },
): Promise<boolean> {
  const controller = new AbortController();
  const onSigint = () => {
    process.stderr.write(
      yellow(
        "\nStopping: no new claims are started; the ones running finish. Resume later with `npx counterpoint eval resume <run>`. Ctrl-C again quits at once.\n",
      ),
    );
    process.off("SIGINT", onSigint);
    process.once("SIGINT", () => process.exit(130));
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  try {
    const working = executor.work({
      concurrency: opts.concurrency,
      runId,
      untilRunDone: true,
      signal: controller.signal,
      resolverFor: installedResolverFactory(),
      log: (l) => process.stderr.write(`${dim(l)}\n`),
    });
    await Promise.all([working, watch(h, runId, working, opts.json)]);
  } finally {
    process.off("SIGINT", onSigint);
    await executor.close();
  }
  return !controller.signal.aborted;
}

type EvalOptions = {
  claims?: string;
  dataset?: ClaimDatasetName;
  data?: string;
  corpus?: string;
  k: number;
  evidence?: "gold" | "supplied";
  protocol?: string;
  config?: Record<string, unknown>;
  variant?: string;
  model: string[];
  limit?: number;
  sample?: "balanced" | "random";
  seed?: number;
  yes?: boolean;
  concurrency: number;
  earlyStopping?: "on" | "off" | "score-only";
  rebuttals?: number;
  tauS?: number;
  tauV?: number;
  budgetTokens?: number;
  budgetUsd?: number;
  preset?: PresetName;
  name?: string;
  executor?: ExecutorKind;
  detach?: boolean;
  resamples: number;
  nei?: "exclude" | "keep";
  repeats?: number;
  inconclusive?: InconclusivePolicy;
  json?: boolean;
  protocols?: string[];
  presets?: PresetName[];
  allowUnscored?: boolean;
  labelMap?: string;
  matchClaims?: boolean;
};

async function loadRunClaims(
  opts: EvalOptions,
  preset?: Preset,
): Promise<{ claims: ClaimRecord[]; dataset: string; source: string }> {
  const loaded = await loadRunClaimsAsGiven(opts, preset);
  return opts.labelMap ? { ...loaded, claims: applyLabelMap(loaded.claims, readLabelMap(opts.labelMap)) } : loaded;
}

async function loadRunClaimsAsGiven(
  opts: EvalOptions,
  preset?: Preset,
): Promise<{ claims: ClaimRecord[]; dataset: string; source: string }> {
  if (opts.claims) {
    const claims = await loadClaims(opts.claims);
    const fromMeta = claims.find((c) => typeof c.metadata?.dataset === "string")?.metadata?.dataset as
      | string
      | undefined;
    return {
      claims,
      dataset: opts.dataset ?? fromMeta ?? path.basename(opts.claims).replace(/\.jsonl?$/, ""),
      source: path.resolve(opts.claims),
    };
  }
  if (!opts.dataset)
    throw new Error(
      "Give the claims: --claims <file.jsonl>, or --dataset <name> (with --data <dir>, or installed with `npx counterpoint dataset download`), or a --preset.",
    );
  // Without --data, the installed copy (lib/datasets/download.ts); its error says how to install it.
  if (!opts.data) {
    try {
      opts.data = installedDataFor(opts.dataset);
    } catch (e) {
      throw new Error(`${(e as Error).message}${preset?.dataHint ? `\n${preset.dataHint}` : ""}`);
    }
  }
  // The preset's import settings apply to its own dataset only (AVeriTeC's 4 labels for Tool-MAD).
  const fromPreset = preset && preset.dataset === opts.dataset;
  let claims: ClaimRecord[];
  try {
    claims = await convertDataset(opts.dataset, opts.data, {
      ...(fromPreset ? preset.convert : {}),
      ...(opts.nei ? { nei: opts.nei } : {}),
      onNote: (n) => process.stderr.write(`${yellow(n)}\n`),
    });
  } catch (e) {
    throw new Error(`${(e as Error).message}${fromPreset && preset.dataHint ? `\n${preset.dataHint}` : ""}`);
  }
  return {
    claims,
    dataset: (fromPreset ? preset.storeAs : undefined) ?? opts.dataset,
    source: `${opts.dataset}:${path.resolve(opts.data)}`,
  };
}

/**
 * Everything a run needs, from the options and the preset: options given explicitly win, the
 * preset fills the rest (protocol, configuration, sample and seed, evidence, the paper's rows).
 */
export async function runRequest(opts: EvalOptions): Promise<{
  input: Omit<CreateRunInput, "executor"> & { executor?: ExecutorKind };
  preset?: Preset;
  seed: number;
  repeats: number;
}> {
  const preset: Preset | undefined = opts.preset ? PRESETS[opts.preset] : undefined;
  if (preset && !opts.dataset && !opts.claims) opts.dataset = preset.dataset;
  const protocolName = opts.protocol ?? preset?.protocol ?? DEFAULT_PROTOCOL;
  const evidence = evidenceFor(opts, preset, protocolName);
  const { claims, dataset, source } = await loadRunClaims(opts, preset);
  const seed = opts.seed ?? preset?.sample?.seed ?? 1;
  const sample = { limit: opts.limit ?? preset?.sample?.limit, sample: opts.sample ?? preset?.sample?.sample, seed };
  return {
    preset,
    seed,
    input: { ...runSettings(opts, preset, protocolName, opts.config), evidence, dataset, claims, sample, source },
    repeats: opts.repeats ?? (preset && preset.protocol === protocolName ? preset.repeats : undefined) ?? 1,
  };
}

function evidenceFor(opts: EvalOptions, preset: Preset | undefined, protocolName: string): EvidenceSpec {
  const searchesItself = getProtocol(protocolName).upfrontEvidence === false;
  const presetTools = preset?.evidence.mode === "tools";
  return opts.corpus
    ? searchesItself || presetTools
      ? { mode: "tools", corpus: opts.corpus }
      : { mode: "retrieved", corpus: opts.corpus, k: opts.k }
    : opts.evidence
      ? { mode: opts.evidence }
      : (preset?.evidence ??
        (searchesItself
          ? { mode: "tools", corpus: null }
          : (() => {
              throw new Error(
                `Say where the evidence comes from${opts.protocols ? ` for ${protocolName}` : ""}: --corpus <name>, or --evidence gold|supplied.`,
              );
            })()));
}

/** A run's settings from the options and the preset (options given explicitly win), without claims or evidence. */
function runSettings(
  opts: EvalOptions,
  preset: Preset | undefined,
  protocolName: string,
  extraConfig: Record<string, unknown> | undefined,
) {
  const own = preset && preset.protocol === protocolName;
  const config: Record<string, unknown> = { ...(own ? preset.config : {}), ...(extraConfig ?? {}) };
  // --variant, --early-stopping, --rebuttals, --tau-s, --tau-v: one method's flags. Alone they reach the
  // run as given; in a matrix each method reads them as its form would (RADAR's only, today).
  if (!opts.protocols) {
    if (opts.variant) config.variant = opts.variant;
    if (opts.earlyStopping) config.earlyStopping = opts.earlyStopping;
    if (opts.rebuttals !== undefined) config.rebuttals = opts.rebuttals;
    if (opts.tauS !== undefined || opts.tauV !== undefined) config.thresholds = { tauS: opts.tauS, tauV: opts.tauV };
  } else {
    const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
    Object.assign(
      config,
      findMethod(protocolName)?.configFromForm({
        variant: text(opts.variant),
        earlyStopping: text(opts.earlyStopping),
        rebuttals: text(opts.rebuttals),
        tauS: text(opts.tauS),
        tauV: text(opts.tauV),
      }) ?? {},
    );
  }
  return {
    name: opts.name,
    protocol: protocolName,
    config,
    models: parseModels(opts.model),
    budget: { maxTokens: opts.budgetTokens, maxCostUsd: opts.budgetUsd },
    executor: opts.executor,
    preset: own ? opts.preset : undefined,
    references: own ? preset.references : [],
    ...(opts.inconclusive ? { reporting: { inconclusive: opts.inconclusive } } : {}),
    ...(own && preset.caveat ? { caveat: preset.caveat } : {}),
  };
}

/**
 * The matrix's plan: the claims loaded once (no preset's import settings, so every protocol sees
 * the same file), one entry per protocol with its preset from --presets, the papers' rows of every
 * preset for that protocol and dataset, then planMatrix's scoring and refusals.
 */
export async function matrixRequest(
  opts: EvalOptions,
): Promise<{ plan: MatrixPlan; seed: number; source: string; presets: Map<string, PresetName> }> {
  if (opts.repeats && opts.repeats > 1)
    throw new Error(
      "--repeats and --protocols cannot be combined: a matrix runs each protocol once over the same claims. Run repeats of one protocol with --protocol <name> --repeats n.",
    );
  if (opts.config)
    throw new Error(
      "--config is one protocol's configuration; in a matrix, configure each protocol with --presets <preset,...> (see --preset for the names).",
    );
  if (opts.preset)
    throw new Error("With --protocols, name presets with --presets <p1,p2,...> (one per protocol at most).");
  const protocols = opts.protocols!;
  const presets = new Map<string, PresetName>();
  for (const name of opts.presets ?? []) {
    const p = PRESETS[name];
    if (!protocols.includes(p.protocol))
      throw new Error(`--presets ${name} is a ${p.protocol} preset, but --protocols does not name ${p.protocol}.`);
    if (presets.has(p.protocol))
      throw new Error(
        `--presets names two ${p.protocol} presets (${presets.get(p.protocol)} and ${name}); a matrix runs each protocol once.`,
      );
    presets.set(p.protocol, name);
  }
  const { claims, dataset, source } = await loadRunClaims(opts);
  const seed = opts.seed ?? 1;
  const entries: MatrixEntry[] = [];
  const explicitLabels = new Set<string>();
  for (const protocol of protocols) {
    const presetName = presets.get(protocol);
    const preset = presetName ? PRESETS[presetName] : undefined;
    const settings = runSettings({ ...opts, preset: presetName }, preset, protocol, undefined);
    if (preset && "labels" in preset.config) explicitLabels.add(protocol);
    // The papers' rows of every preset of this protocol on this dataset, whichever preset (if any) configures the run.
    const references = referencesFor(protocol, dataset);
    const caveat = settings.caveat ?? (references.length ? presetCaveat(protocol, dataset) : undefined);
    entries.push({
      ...settings,
      evidence: evidenceFor(opts, preset, protocol),
      source,
      references,
      ...(caveat ? { caveat } : {}),
      // As for one run: every protocol's debates store the claim's match (made once, lib/eval/matrix.ts).
      ...(opts.matchClaims ? { matchClaims: true } : {}),
    });
  }
  const plan = planMatrix({
    dataset,
    claims,
    sample: { limit: opts.limit, sample: opts.sample, seed },
    entries,
    explicitLabels,
  });
  return { plan, seed, source, presets };
}

/** The caveat of the protocol's preset for this dataset (what differs from the paper's setting), printed with its rows. */
function presetCaveat(protocol: string, dataset: string): string | undefined {
  const p = Object.values(PRESETS).find(
    (x) => x.protocol === protocol && (x.dataset === dataset || ("storeAs" in x && x.storeAs === dataset)),
  );
  return p && "caveat" in p ? p.caveat : undefined;
}

export function matrixEstimateLines(plan: MatrixPlan): string {
  const e = estimateMatrix(plan);
  const lines = [
    `Before starting ${plural(plan.runs.length, "run")} over the same ${plural(plan.selected.length, "claim")}:`,
  ];
  for (const r of e.perRun)
    lines.push(
      `- ${r.protocol}:`,
      r.estimate ? estimateLines(r.estimate).replace(/^/gm, "    ") : "    no estimate from this protocol",
    );
  lines.push(
    `In all: ${thousands(e.llmCalls)} LLM calls, ${thousands(e.toolCalls)} tool calls, ${thousands(e.tokens)} tokens, ${e.costUsd === null ? `cost unknown (no estimate or price for ${e.unknown.join(", ")})` : `about $${e.costUsd < 0.01 ? e.costUsd.toFixed(4) : e.costUsd.toFixed(2)}`} (every round run: an upper bound).`,
  );
  lines.push(
    "Scored on the dataset's gold labels:",
    ...plan.runs.map((r) => `- ${r.entry.protocol}: ${r.scoring.how}`),
  );
  const onProduct = plan.runs.filter((r) => r.scoring.scale === PRODUCT_SCALE).map((r) => r.entry.protocol);
  if (onProduct.length) lines.push(`${onProduct.join(", ")}: ${PRODUCT_SCALE_SENTENCE}`);
  return lines.join("\n");
}

async function runMatrix(opts: EvalOptions) {
  const { plan, seed } = await matrixRequest(opts);
  if (plan.refused.length)
    throw new Error(
      `Not started: ${plural(plan.refused.length, "protocol")} cannot be scored on ${plan.dataset}.\n${plan.refused.map((r) => `- ${r.reason}`).join("\n")}`,
    );
  const unscored = unscoredOf(plan);
  if (unscored.length && !opts.allowUnscored) throw new Error(unscoredMessage(unscored));
  if (unscored.length) process.stderr.write(`${yellow(unscoredNotice(unscored))}\n`);
  const h = await getDb();
  const factory = installedResolverFactory();
  const log = (l: string) => process.stderr.write(`${dim(l)}\n`);
  log(
    `creating the matrix: ${plural(plan.claimsInFile, "claim")} in the file, ${plan.selected.length} selected${plan.sample.limit ? ` (${plan.sample.sample ?? "first"} ${plan.sample.limit}, seed ${seed})` : ""}, the same for ${plan.runs.map((r) => r.entry.protocol).join(", ")}`,
  );
  for (const r of plan.runs) {
    const named =
      r.entry.evidence.mode === "tools" || r.entry.evidence.mode === "retrieved" ? r.entry.evidence.corpus : null;
    if (named && !(await findCorpus(h.db, named)))
      throw new Error(
        `There is no corpus named "${named}" (for ${r.entry.protocol}). See the corpora with: npx counterpoint corpus list`,
      );
  }
  try {
    process.stderr.write(`${matrixEstimateLines(plan)}\n`);
  } catch (e) {
    const role = /^No model for role "([^"]+)"/.exec((e as Error).message)?.[1];
    if (role)
      throw new Error(
        `${(e as Error).message}\nOn the command line: --model ${role}=<id> (repeatable, one per role), or DEFAULT_MODEL=<id> for every role.`,
      );
    throw e;
  }
  if (!(await confirmStart(opts.yes, !!opts.json))) {
    process.stderr.write("Not started.\n");
    return;
  }
  const made = await createMatrix(h, plan, { principal: OPERATOR, validateModel: factory ? () => {} : undefined });
  process.stderr.write(`${bold("matrix group")} ${made.group}\n`);
  for (const m of made.runs)
    log(
      `${m.protocol}: run ${m.created.runId}, ${plural(m.created.items, "claim")} queued (${m.executor.kind})${m.created.skipped.length ? `, ${m.created.skipped.length} skipped (e.g. ${m.created.skipped[0]!.id}: ${m.created.skipped[0]!.reason})` : ""}${m.created.matching ? `; ${m.created.matching.withEarlierChecks} of ${plural(m.created.matching.claims, "claim")} had earlier checks (stored with each claim's debate; all are debated)` : ""}`,
    );
  if (opts.detach) {
    for (const m of made.runs) await m.executor.close();
    emit(
      !!opts.json,
      {
        group: made.group,
        runs: made.runs.map((m) => ({
          protocol: m.protocol,
          run_id: m.created.runId,
          items: m.created.items,
          skipped: m.created.skipped,
          ...(m.created.matching ? { matching: m.created.matching } : {}),
        })),
      },
      () =>
        `${green("✔")} matrix ${made.group} queued: ${made.runs.length} runs of ${plural(plan.selected.length, "claim")}. Start workers with: npx counterpoint worker; then: npx counterpoint eval leaderboard ${made.group}`,
    );
    return;
  }
  for (const [i, m] of made.runs.entries()) {
    log(`— ${m.protocol} (${i + 1}/${made.runs.length}), run ${m.created.runId}`);
    if (!(await workRun(h, m.executor, m.created.runId, { concurrency: opts.concurrency, json: !!opts.json }))) {
      for (const rest of made.runs.slice(i + 1)) await rest.executor.close().catch(() => undefined);
      break;
    }
  }
  const lb = (await buildLeaderboard(h.db, made.group, { resamples: opts.resamples, seed }))!;
  if (opts.json) process.stdout.write(leaderboardJson(lb));
  else
    process.stdout.write(
      `${leaderboardMarkdown(lb)}\n${dim(`Open /eval/groups/${made.group} in the app; export with: npx counterpoint eval leaderboard ${made.group} --format md|csv|json`)}\n`,
    );
}

const thousands = (n: number) => Math.round(n).toLocaleString("en-US");

export function estimateLines(e: RunEstimate): string {
  const cost =
    e.costUsd === null
      ? `cost unknown (no price for ${e.unpricedModels.join(", ")}; add it with PRICES_FILE)`
      : `about $${e.costUsd < 0.01 ? e.costUsd.toFixed(4) : e.costUsd.toFixed(2)}`;
  return [
    `Before starting: ${plural(e.claims, "claim")} × the protocol's estimate per claim (${thousands(e.perClaim.llmCalls)} LLM calls, ${thousands(e.perClaim.toolCalls)} tool calls, ${thousands(e.perClaim.promptTokens + e.perClaim.completionTokens)} tokens; every round run, so an upper bound)`,
    `  = ${thousands(e.llmCalls)} LLM calls, ${thousands(e.toolCalls)} tool calls, ${thousands(e.promptTokens)} prompt + ${thousands(e.completionTokens)} completion tokens, ${cost}.`,
    `  Models: ${Object.entries(e.models)
      .map(([r, m]) => `${r}=${m}`)
      .join(", ")}${e.perClaim.note ? `\n  ${e.perClaim.note}` : ""}`,
  ].join("\n");
}

/** Asks only on a terminal: a pipe, CI or --yes never waits for input. */
export async function confirmStart(yes: boolean | undefined, json: boolean): Promise<boolean> {
  if (yes || json || !process.stdin.isTTY || !process.stderr.isTTY) return true;
  const readline = await import("node:readline/promises");
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question("Start the run? [Y/n] ");
    return !/^n/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function register(program: Command) {
  const evalCmd = program
    .command("eval")
    .description(
      "Run an evaluation: every claim of a claims file becomes a stored debate; workers run them; prints accuracy, macro-F1, per-class scores with bootstrap intervals, cost and stop rounds.",
    )
    .option("--claims <file>", "claims JSONL (see `dataset convert`)")
    .option("--dataset <name>", `import this dataset directly: ${CLAIM_DATASETS.join(" | ")}`, oneOf(CLAIM_DATASETS))
    .option(
      "--data <dir>",
      "with --dataset or --preset: the dataset folder (default: the installed copy, see `dataset download`)",
    )
    .option("--corpus <name>", "retrieve evidence from this corpus")
    .option("--k <n>", "with --corpus: passages per claim", positiveInt, 20)
    .option(
      "--evidence <mode>",
      "gold (the claims' gold evidence) | supplied (evidence given in the claims file)",
      oneOf(["gold", "supplied"] as const),
    )
    .option(
      "--protocol <name>",
      `${PROTOCOL_NAMES.join(" | ")} (default: the preset's, else ${DEFAULT_PROTOCOL})`,
      (v: string) => oneOf(PROTOCOL_NAMES)(v),
    )
    .option(
      "--protocols <list>",
      `an evaluation matrix: one run per protocol (comma-separated: ${PROTOCOL_NAMES.join(",")}) over the same claims, grouped; then \`eval leaderboard <group>\``,
      commaList(PROTOCOL_NAMES),
    )
    .option(
      "--presets <list>",
      "with --protocols: presets configuring some of the protocols (comma-separated, one per protocol)",
      commaList(PRESET_NAMES),
    )
    .option(
      "--config <json>",
      'the protocol\'s configuration as JSON, over the preset\'s (e.g. \'{"labels":"averitec","rounds":2}\')',
      jsonObject,
    )
    .option("--variant <v>", methodVariants().join(" | "), oneOf(methodVariants()))
    .option("--model <role=id>", "model for a role (repeatable); default ROLE_MODELS / DEFAULT_MODEL", collect, [])
    .option("--limit <n>", "at most n claims", positiveInt)
    .option(
      "--sample <how>",
      "balanced | random (seeded); default: the first --limit claims",
      oneOf(["balanced", "random"] as const),
    )
    .option("--seed <s>", "seed for --sample and the bootstrap (default: the preset's, else 1)", positiveInt)
    .option("--concurrency <k>", "claims this process runs at once", positiveInt, 4)
    .option(
      "--early-stopping <mode>",
      "on | off | score-only (every checkpoint scored, never stops: for `calibrate`)",
      oneOf(["on", "off", "score-only"] as const),
    )
    .option("--rebuttals <n>", "rebuttal rounds (the paper's 3 rounds = 1)", (v) => Number(v))
    .option("--tau-s <x>", "stop-margin threshold (default: calibrated for the judge model, else the paper's)", Number)
    .option("--tau-v <x>", "confidence threshold", Number)
    .option("--budget-tokens <n>", "pause the run once its debates have used this many tokens", positiveInt)
    .option("--budget-usd <x>", "pause the run once its debates have cost this much", nonNegative)
    .option("--preset <name>", `the paper's settings: ${PRESET_NAMES.join(" | ")}`, oneOf(PRESET_NAMES))
    .option(
      "--nei <what>",
      "AVeriTeC Not Enough Evidence: exclude | keep (reported outside the 3-way scores)",
      oneOf(["exclude", "keep"] as const),
    )
    .option(
      "--repeats <n>",
      "debate every claim n times, one run per repeat; the report gives the majority over runs (ties: the protocol's no-side label, e.g. INCONCLUSIVE), the best-of-runs oracle and each run (default: the preset's, else 1)",
      positiveInt,
    )
    .option(
      "--inconclusive <policy>",
      `how reports score a verdict that takes no side (PROClaim's INCONCLUSIVE): ${INCONCLUSIVE_POLICIES.join(" | ")} (default support, the paper's burden of refutation); the stored label stays`,
      oneOf(INCONCLUSIVE_POLICIES),
    )
    .option("--name <text>", "a name for the run")
    .option(
      "--executor <kind>",
      "pg-boss (PostgreSQL default) | in-process (embedded default)",
      oneOf(["pg-boss", "in-process"] as const),
    )
    .option("--detach", "create and queue the run, then exit: `counterpoint worker` processes run it")
    .option("--resamples <n>", "bootstrap resamples for the intervals", positiveInt, 1000)
    .option(
      "--allow-unscored",
      "start even when some claims' gold labels cannot be scored by the method (they are counted before the start and reported outside the scores)",
    )
    .option(
      "--label-map <file>",
      'a JSON object mapping the file\'s gold labels to labels the method reads, e.g. {"Mostly Accurate":"TRUE"} (see `dataset validate`)',
    )
    .option(
      "--match-claims",
      "match every claim against earlier checks first: stored with each claim's debate, and the run says how many had one (every claim is still debated; in a matrix, each claim once for every protocol)",
    )
    .option("--yes", "start without asking after the cost preview (never asked when stdin is not a terminal)")
    .option("--json", "print the report as JSON (progress goes to stderr)")
    .action(async (opts: EvalOptions) => {
      if (opts.protocols && opts.protocol)
        throw new Error("Give either --protocol (one run) or --protocols (a matrix of runs), not both.");
      if (opts.protocols) return runMatrix(opts);
      const { input: asked, preset, seed, repeats } = await runRequest(opts);
      // Scored as a one-protocol matrix would be, and refused when claims would go unscored.
      const { claims: _c, dataset: _d, sample: _s, ...entry } = asked;
      const explicitLabels =
        !!(opts.config && "labels" in opts.config) ||
        !!(preset && preset.protocol === asked.protocol && "labels" in preset.config);
      const single = planSingleRun({
        dataset: asked.dataset,
        claims: asked.claims,
        sample: asked.sample,
        entry,
        explicitLabels,
      });
      if (single.unscored.length && !opts.allowUnscored) throw new Error(unscoredMessage(single.unscored));
      if (single.unscored.length) process.stderr.write(`${yellow(unscoredNotice(single.unscored))}\n`);
      const input = {
        ...asked,
        config: single.config,
        ...(single.scoring.scale ? { scoring: single.scoring } : {}),
        ...(opts.matchClaims ? { matchClaims: true } : {}),
      };
      if (single.scoring.scale)
        process.stderr.write(`${dim(`Scored ${single.scoring.how}. ${PRODUCT_SCALE_SENTENCE}`)}\n`);
      const h = await getDb();
      const named =
        input.evidence.mode === "tools" || input.evidence.mode === "retrieved" ? input.evidence.corpus : null;
      if (named && preset?.corpusHint && !(await findCorpus(h.db, named)))
        throw new Error(`There is no corpus named "${named}". ${preset.corpusHint}`);
      const factory = installedResolverFactory();
      const log = (l: string) => process.stderr.write(`${dim(l)}\n`);
      log(
        `creating the run: ${input.claims.length} claims in ${input.source}${input.sample?.limit ? `, ${input.sample.sample ?? "first"} ${input.sample.limit} (seed ${seed})` : ""}`,
      );
      if (preset?.caveat) log(`${opts.preset}: ${preset.caveat}`);
      let estimate: RunEstimate | null;
      try {
        estimate = estimateRun(input);
      } catch (e) {
        // The registry's message speaks of the web form; on the command line a role's model is a flag.
        const role = /^No model for role "([^"]+)"/.exec((e as Error).message)?.[1];
        if (role)
          throw new Error(
            `${(e as Error).message}\nOn the command line: --model ${role}=<id> (repeatable, one per role), or DEFAULT_MODEL=<id> for every role.`,
          );
        throw e;
      }
      if (estimate) process.stderr.write(`${estimateLines(estimate)}\n`);
      if (repeats > 1)
        process.stderr.write(`${repeats} runs of every claim (--repeats ${repeats}): ${repeats} × the above.\n`);
      if (!(await confirmStart(opts.yes, !!opts.json))) {
        process.stderr.write("Not started.\n");
        return;
      }
      // Repeats are runs over the same claims, linked by a group id in their configuration (lib/eval/repeats.ts).
      const group = repeats > 1 ? randomUUID() : null;
      const made: Array<Awaited<ReturnType<typeof createAndQueueRun>>> = [];
      for (let k = 1; k <= repeats; k++) {
        const repeatInput = group
          ? {
              ...input,
              name: `${input.name ?? input.dataset} · run ${k}/${repeats}`,
              repeat: { group, index: k, of: repeats },
            }
          : input;
        // As the operator through the one start service: any model, not counted against DEBATE_RATE_LIMIT.
        made.push(
          await createAndQueueRun(h, repeatInput, {
            principal: OPERATOR,
            validateModel: factory ? () => {} : undefined,
          }),
        );
      }
      const { created, executor } = made[0]!;
      if (created.skipped.length)
        log(
          `${plural(created.skipped.length, "claim")} skipped (e.g. ${created.skipped[0]!.id}: ${created.skipped[0]!.reason})`,
        );
      for (const m of made)
        log(
          `run ${m.created.runId}: ${plural(m.created.items, "claim")} queued (${m.executor.kind})${group ? ` · repeat group ${group}` : ""}`,
        );
      if (created.matching)
        log(
          `${created.matching.withEarlierChecks} of ${plural(created.matching.claims, "claim")} had earlier checks (stored with each claim's debate; all are debated)`,
        );
      if (opts.detach) {
        for (const m of made) await m.executor.close();
        const runIds = made.map((m) => m.created.runId);
        emit(
          !!opts.json,
          {
            run_id: created.runId,
            run_ids: runIds,
            repeat_group: group,
            items: created.items,
            skipped: created.skipped,
            ...(created.matching ? { matching: created.matching } : {}),
            executor: executor.kind,
          },
          () =>
            `${green("✔")} ${runIds.length > 1 ? `runs ${runIds.join(", ")}` : `run ${created.runId}`} queued: ${plural(created.items, "claim")}${runIds.length > 1 ? " each" : ""}. Start workers with: npx counterpoint worker`,
        );
        return;
      }
      await workAndReport(h, executor, created.runId, {
        concurrency: opts.concurrency,
        json: !!opts.json,
        resamples: opts.resamples,
        seed,
        inconclusive: opts.inconclusive,
        then: made.slice(1).map((m) => ({ runId: m.created.runId, executor: m.executor })),
      });
    });

  evalCmd
    .command("report")
    .description(
      "A run's report (also while it runs): metrics with bootstrap intervals, cost, stop rounds, failed items.",
    )
    .argument("<run>", "run id")
    .option("--format <f>", "json | md | csv (one row per claim)", oneOf(["json", "md", "csv"] as const), "md")
    .option("--out <file>", "write to a file instead of stdout")
    .option("--resamples <n>", "bootstrap resamples", positiveInt, 1000)
    .option("--seed <s>", "bootstrap seed", positiveInt, 1)
    .option(
      "--inconclusive <policy>",
      `how to score a verdict that takes no side (PROClaim's INCONCLUSIVE): ${INCONCLUSIVE_POLICIES.join(" | ")} (default: the run's, else support)`,
      oneOf(INCONCLUSIVE_POLICIES),
    )
    .option("--json", "same as --format json")
    .action(
      async (
        runId: string,
        opts: {
          format: "json" | "md" | "csv";
          out?: string;
          resamples: number;
          seed: number;
          inconclusive?: InconclusivePolicy;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        // `eval` has options of the same names, and commander hands them to it even after `report`.
        const parent = (cmd.parent?.opts() ?? {}) as { inconclusive?: InconclusivePolicy; json?: boolean };
        const inconclusive = opts.inconclusive ?? parent.inconclusive;
        const { db } = await getDb();
        // Run ids are UUIDs: anything else names no run (the database would refuse it as a malformed id).
        const r = z.string().uuid().safeParse(runId).success
          ? await buildReport(db, runId, { resamples: opts.resamples, seed: opts.seed, inconclusive })
          : null;
        if (!r) throw new Error(`no evaluation run ${runId}; \`counterpoint eval list\` shows the runs`);
        const format = opts.json || parent.json ? "json" : opts.format;
        const text =
          format === "json" ? `${JSON.stringify(r, null, 2)}\n` : format === "csv" ? reportCsv(r) : reportMarkdown(r);
        if (opts.out) {
          fs.writeFileSync(opts.out, text);
          process.stderr.write(`${green("✔")} ${path.resolve(opts.out)}\n`);
        } else process.stdout.write(text);
      },
    );

  evalCmd
    .command("list")
    .description("Evaluation runs, newest first.")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { db } = await getDb();
      // The same rows and scores as the /eval page.
      const rows = (await evalRunList(db)).map((r) => ({
        id: r.id,
        name: r.name,
        status: r.status,
        dataset: r.dataset,
        variant: r.variant,
        created_at: r.created_at,
        progress: r.progress,
        metrics: {
          n: r.n,
          accuracy: r.accuracy,
          macro_f1: r.macro_f1,
          unparsed: r.verdicts.unparsed,
          all_unparsed: r.verdicts.unreadable,
        },
      }));
      const groups = opts.json ? [] : await listMatrixGroups(db, 10);
      const matrices = groups.length
        ? `\n\nEvaluation matrices (see one with: npx counterpoint eval leaderboard <group>):\n${groups.map((g) => `${g.group}  ${g.dataset ?? "—"}  ${g.runs.map((r) => r.protocol).join(", ")}`).join("\n")}`
        : "";
      emit(!!opts.json, rows, () =>
        rows.length
          ? rows.map((r) => `${r.id}  ${r.status.padEnd(9)} ${r.name}\n  ${dim(progressLine(r.progress))}`).join("\n") +
            matrices
          : "No evaluation runs yet.",
      );
    });

  evalCmd
    .command("compare")
    .description(
      "Two runs side by side on the claims both finished: accuracy and macro-F1 differences with paired bootstrap intervals, and McNemar's exact test.",
    )
    .argument("<runA>")
    .argument("<runB>")
    .option("--resamples <n>", "bootstrap resamples", positiveInt, 2000)
    .option("--seed <s>", "bootstrap seed", positiveInt, 1)
    .option("--json", "print JSON")
    .action(async (a: string, b: string, opts: { resamples: number; seed: number; json?: boolean }) => {
      const { db } = await getDb();
      const c = await compareRuns(db, a, b, { resamples: opts.resamples, seed: opts.seed });
      emit(!!opts.json, c, () => comparisonMarkdown(c));
    });

  evalCmd
    .command("leaderboard")
    .description(
      "An evaluation matrix's leaderboard (`eval --protocols`): per protocol accuracy and macro-F1 with 95% intervals, tokens, cost, calls and time per claim, pairwise McNemar tests, the papers' numbers beside ours.",
    )
    .argument("[group]", "the matrix group id (printed when the matrix starts; see --list)")
    .option("--format <f>", "md | csv | json", oneOf(["md", "csv", "json"] as const), "md")
    .option("--out <file>", "write to a file instead of stdout")
    .option("--resamples <n>", "bootstrap resamples", positiveInt, 1000)
    .option("--seed <s>", "bootstrap seed", positiveInt, 1)
    .option("--list", "list the matrix groups instead")
    .action(
      async (
        group: string | undefined,
        opts: { format: "md" | "csv" | "json"; out?: string; resamples: number; seed: number; list?: boolean },
        cmd: Command,
      ) => {
        const parent = (cmd.parent?.opts() ?? {}) as { json?: boolean };
        const { db } = await getDb();
        if (opts.list || !group) {
          const groups = await listMatrixGroups(db);
          emit(!!parent.json || opts.format === "json", groups, () =>
            groups.length
              ? groups
                  .map(
                    (g) =>
                      `${g.group}  ${g.dataset ?? "—"}  ${g.created_at.slice(0, 16).replace("T", " ")}  ${g.runs.map((r) => `${r.protocol} (${r.status})`).join(", ")}`,
                  )
                  .join("\n")
              : "No evaluation matrices yet. Start one with: npx counterpoint eval --protocols radar,tool-mad --dataset <name> --data <dir> ...",
          );
          return;
        }
        const lb = await buildLeaderboard(db, group, { resamples: opts.resamples, seed: opts.seed });
        if (!lb)
          throw new Error(
            `There is no evaluation matrix "${group}". See the matrices with: npx counterpoint eval leaderboard --list`,
          );
        const format = parent.json ? "json" : opts.format;
        const text =
          format === "json" ? leaderboardJson(lb) : format === "csv" ? leaderboardCsv(lb) : leaderboardMarkdown(lb);
        if (opts.out) {
          fs.writeFileSync(opts.out, text);
          process.stderr.write(`${green("✔")} ${path.resolve(opts.out)}\n`);
        } else process.stdout.write(text);
      },
    );

  evalCmd
    .command("retry")
    .description(
      "Run a run's failed items again (all, or the ones named), continuing each debate from its last finished turn.",
    )
    .argument("<run>")
    .option("--item <id>", "only this item (repeatable)", collect, [])
    .option("--concurrency <k>", "claims this process runs at once", positiveInt, 4)
    .option("--detach", "only queue them")
    .option("--json", "print the report as JSON")
    .action(async (runId: string, opts: { item: string[]; concurrency: number; detach?: boolean; json?: boolean }) => {
      const h = await getDb();
      const ids = await resetFailedItems(h.db, runId, opts.item);
      if (!ids.length) throw new Error("no failed items to retry");
      const { executor } = await queueRun(h, runId, { itemIds: ids });
      process.stderr.write(`${dim(`${plural(ids.length, "item")} queued again`)}\n`);
      if (opts.detach) return executor.close();
      await workAndReport(h, executor, runId, { concurrency: opts.concurrency, json: !!opts.json });
    });

  evalCmd
    .command("resume")
    .description("Continue a paused run (budget reached, or stopped), optionally with a new budget.")
    .argument("<run>")
    .option("--budget-tokens <n>", "new token budget", positiveInt)
    .option("--budget-usd <x>", "new cost budget", nonNegative)
    .option("--no-budget", "remove the budget")
    .option("--concurrency <k>", "claims this process runs at once", positiveInt, 4)
    .option("--detach", "only queue the run")
    .option("--json", "print the report as JSON")
    .action(
      async (
        runId: string,
        opts: {
          budgetTokens?: number;
          budgetUsd?: number;
          budget: boolean;
          concurrency: number;
          detach?: boolean;
          json?: boolean;
        },
      ) => {
        const h = await getDb();
        if (!opts.budget) await h.db.update(s.evalRuns).set({ budget: null }).where(eq(s.evalRuns.id, runId));
        else if (opts.budgetTokens !== undefined || opts.budgetUsd !== undefined)
          await h.db
            .update(s.evalRuns)
            .set({ budget: { maxTokens: opts.budgetTokens, maxCostUsd: opts.budgetUsd } })
            .where(eq(s.evalRuns.id, runId));
        if (!(await setRunStatus(h.db, runId, "running", null, ["paused", "queued", "running"])))
          throw new Error(`run ${runId} is not paused (see npx counterpoint eval list)`);
        const { executor, queued: n } = await queueRun(h, runId);
        process.stderr.write(`${dim(`${plural(n, "pending item")} queued`)}\n`);
        if (opts.detach) return executor.close();
        await workAndReport(h, executor, runId, { concurrency: opts.concurrency, json: !!opts.json });
      },
    );

  evalCmd
    .command("cancel")
    .description("Stop a run: no further claims start (claims running finish).")
    .argument("<run>")
    .action(async (runId: string) => {
      const { db } = await getDb();
      if (!(await setRunStatus(db, runId, "cancelled", "Cancelled by a user.", ["queued", "running", "paused"])))
        throw new Error(`run ${runId} is not active`);
      process.stdout.write(`${red("■")} run ${runId} cancelled\n`);
    });

  evalCmd
    .command("scores")
    .description(
      "Write a score-only run's checkpoints as a calibration scores file (the --scores input of `calibrate`).",
    )
    .argument("<run>")
    .requiredOption("--out <file>", "JSONL to write")
    .action(async (runId: string, opts: { out: string }) => {
      const { db } = await getDb();
      const scores = await scoresFromRun(db, runId);
      fs.writeFileSync(opts.out, scores.map((x) => JSON.stringify(x)).join("\n") + "\n");
      process.stderr.write(`${green("✔")} ${plural(scores.length, "claim")} written to ${path.resolve(opts.out)}\n`);
    });
}
