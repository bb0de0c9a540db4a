import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { findCorpus } from "@/db/queries/corpus";
import { insertEvalItem, upsertClaim } from "@/db/queries/eval";
import { modelIdForRole, resolveModel } from "@/lib/ai/registry";
import { costOf, loadPriceTable, type Price } from "@/lib/ai/prices";
import { getConfig } from "@/lib/config";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { getProtocol, modelForRole } from "@/lib/debate/protocols";
import { prepareConfig } from "@/lib/debate/start";
import { admitStoreStart, checkModels, OPERATOR } from "@/lib/debate/start-service";
import { claimLengthError } from "@/lib/debate/claim-length";
import { demand, type Principal } from "@/lib/auth/policy";
import { evidenceCountProblem } from "@/lib/debate/evidence";
import type { CostEstimate, DebateEvidence } from "@/lib/debate/types";
import type { MatchDecision } from "@/lib/matching/types";
import type { Embedder } from "@/lib/embeddings/registry";
import { promptsHash } from "@/lib/prompts";
import { search } from "@/lib/retrieval/search";
import type { InconclusivePolicy } from "./inconclusive";
import type { ReferenceRow } from "./presets";
import type { RepeatInfo } from "./repeats";
import { selectClaims, type SampleOptions } from "./sample";
import { matchBeforeStart } from "@/lib/matching/before-start";

/**
 * Creating an evaluation run: every selected claim becomes a queued debate with its evidence
 * frozen now, stored like any debate (openable, annotatable), plus a run item that workers take.
 * Retrieval happens here, once, so workers on other machines need neither the claims file nor an
 * embedding model: everything a debate needs is in the database.
 */

/**
 * `tools`: the protocol finds its own evidence during the debate (Tool-MAD); no pool is stored, and
 * `corpus` (null: every corpus) is frozen into its corpus tools. A protocol that searches itself
 * given `retrieved` is treated the same way: its corpus is checked and frozen, nothing retrieved.
 */
export type EvidenceSpec =
  | { mode: "gold" }
  | { mode: "supplied" }
  | { mode: "retrieved"; corpus: string; k: number }
  | { mode: "tools"; corpus: string | null };
export type ExecutorKind = "pg-boss" | "in-process";

export type CreateRunInput = {
  name?: string;
  /** Claims are stored per dataset; runs over the same dataset share them. */
  dataset: string;
  claims: readonly ClaimRecord[];
  evidence: EvidenceSpec;
  /** A name from lib/debate/protocols.ts; its own schema validates `config`. */
  protocol: string;
  /** The method's own settings, checked by its protocol's `configSchema` (the registry's `parseConfig`). */
  config: Record<string, unknown>;
  /** Model id per role; roles left out use ROLE_MODELS, then DEFAULT_MODEL. */
  models: Record<string, string>;
  sample?: SampleOptions;
  budget?: { maxTokens?: number; maxCostUsd?: number };
  executor: ExecutorKind;
  preset?: string;
  source?: string;
  /** The paper's numbers for this setting, stored with the run so every report prints them beside ours. */
  references?: ReferenceRow[];
  /** How reports score a verdict that takes no side (PROClaim's INCONCLUSIVE); stored, overridable per report. */
  reporting?: { inconclusive?: InconclusivePolicy };
  /** What differs from the paper's setting (the preset's caveat), printed with the paper's rows in every report. */
  caveat?: string;
  /** This run is repeat `index` of `of` over the same claims (`eval --repeats`); reports aggregate the group. */
  repeat?: RepeatInfo;
  /** This run is one protocol of an evaluation matrix (lib/eval/matrix.ts); stored as given. */
  matrix?: Record<string, unknown>;
  /**
   * How a single run is scored when it is not on its own labels (lib/eval/unscored.ts): the same
   * record a matrix stores in `matrix.scoring`, so a single run reads gold labels as a matrix does.
   */
  scoring?: Record<string, unknown>;
  /**
   * Match every claim against earlier checks first (off by default): the result is stored with each
   * claim's debate (as "debate anyway": a run debates every claim, and attaching an earlier verdict
   * would grade the method on someone else's answer) and the run counts the claims that had one.
   */
  matchClaims?: boolean;
};

export type CreatedRun = {
  runId: string;
  items: number;
  skipped: Array<{ id: string; reason: string }>;
  /** With `matchClaims`: of the claims queued, how many matched an earlier check. */
  matching?: { claims: number; withEarlierChecks: number };
};

function evidenceFor(rec: ClaimRecord, mode: "gold" | "supplied"): DebateEvidence[] {
  const list = mode === "gold" ? rec.gold_evidence : rec.supplied_evidence;
  return (list ?? [])
    .filter((e) => e.text.trim())
    .map((e, i) => ({
      rank: i + 1,
      text: e.text,
      source: mode,
      externalId: e.id,
      score: "score" in e ? (e.score as number | undefined) : undefined,
    }));
}

/**
 * A run's claim matched against earlier checks, as `matchClaims` stores it: a match is recorded as
 * "debate anyway" (a run debates every claim; attaching an earlier verdict would grade the method
 * on someone else's answer).
 */
export async function matchRunClaim(db: Database, rec: ClaimRecord): Promise<MatchDecision> {
  const outcome = await matchBeforeStart({ db }, { claim: rec.claim, claimDate: rec.date?.slice(0, 10) });
  return outcome.kind === "go" ? outcome.decision : { choice: "debate-anyway", matches: outcome.step.matches };
}

export async function createEvalRun(
  db: Database,
  input: CreateRunInput,
  /**
   * `validateModel`: how a model id is checked (tests and benchmarks run scripted models without keys).
   * `admit`: told how many claims were selected once the request is valid and before anything is
   * stored; throwing refuses the run (the web's size and rate policy).
   */
  opts: {
    embedder?: Embedder;
    validateModel?: (id: string) => void;
    onProgress?: (done: number, total: number) => void;
    admit?: (selected: number) => Promise<void>;
    /**
     * Who starts the run (lib/debate/start-service.ts): OPERATOR (the default: the command line,
     * benchmarks) may name any model and is not counted; a web user's models are checked and
     * `admit` is its start limit.
     */
    principal?: Principal;
    /** With `matchClaims`: how a claim is matched (a matrix matches each claim once for all its runs); default matchRunClaim. */
    matchClaim?: (rec: ClaimRecord) => Promise<MatchDecision>;
  } = {},
): Promise<CreatedRun> {
  // Who starts the run's debates: the command line's operator unless an entry says otherwise.
  const user = demand(opts.principal ?? OPERATOR, "debate:start");
  const protocol = getProtocol(input.protocol);
  const config = protocol.parseConfig(input.config) as Record<string, unknown>;
  const validate = opts.validateModel ?? ((id: string) => void resolveModel(id));
  const models: Record<string, string> = {};
  for (const role of protocol.roles(config)) {
    models[role] = modelIdForRole(role, input.models[role] || undefined);
    validate(models[role]!);
  }
  const searchesItself = protocol.upfrontEvidence === false;
  if (input.evidence.mode === "tools" && !searchesItself) {
    throw new Error(
      `${protocol.title} debates over evidence it is given, not evidence it searches for: use --corpus <name> (retrieved), or --evidence gold|supplied.`,
    );
  }
  const corpusName =
    input.evidence.mode === "retrieved" || input.evidence.mode === "tools" ? input.evidence.corpus : null;
  const prepared = await prepareConfig(db, protocol, config, models, corpusName);
  const fullConfig = prepared.config as Record<string, unknown>;
  const thresholds = prepared.thresholds ?? null;
  const variant = prepared.variant;

  const corpus = corpusName ? await findCorpus(db, corpusName) : null;
  if (corpusName && !corpus)
    throw new Error(`There is no corpus named "${corpusName}". See the corpora with: npx counterpoint corpus list`);
  // The protocol retrieves during the debate: nothing is retrieved now, the debate starts with no pool.
  const toolsOnly = searchesItself && (input.evidence.mode === "retrieved" || input.evidence.mode === "tools");

  const selected = selectClaims(input.claims, input.sample);
  if (selected.length === 0) throw new Error("no claims to evaluate");
  // The one start service's steps for a batch (lib/debate/start-service.ts): the models this
  // principal may name, then the start limit (none for the command line; a web run's own size and
  // rate), storage, and the start, which for a run is its queue (queueRun, after this returns).
  checkModels(user, models);
  const { runId, position, skipped, withEarlierChecks } = await admitStoreStart(
    user,
    selected.length,
    { db, start: async () => {}, limit: opts.admit },
    async () => {
      const [run] = await db
        .insert(s.evalRuns)
        .values({
          name:
            input.name ??
            `${input.dataset} · ${variant ?? protocol.name} · ${toolsOnly ? `tools${corpusName ? ` over ${corpusName}` : ""}` : input.evidence.mode === "retrieved" ? `corpus ${input.evidence.corpus}` : `${input.evidence.mode} evidence`}`,
          dataset: input.dataset,
          protocol: protocol.name,
          variant,
          config: {
            [protocol.name]: fullConfig,
            models,
            thresholds,
            evidence: input.evidence,
            sample: input.sample ?? {},
            preset: input.preset ?? null,
            source: input.source ?? null,
            claims_in_file: input.claims.length,
            references: input.references ?? [],
            ...(input.reporting?.inconclusive ? { reporting: input.reporting } : {}),
            ...(input.repeat ? { repeat: input.repeat } : {}),
            ...(input.matrix ? { matrix: input.matrix } : {}),
            ...(input.scoring ? { scoring: input.scoring } : {}),
            ...(input.caveat ? { caveat: input.caveat } : {}),
          },
          status: "queued",
          executor: input.executor,
          budget:
            input.budget && (input.budget.maxTokens !== undefined || input.budget.maxCostUsd !== undefined)
              ? input.budget
              : null,
        })
        .returning({ id: s.evalRuns.id });
      const runId = run!.id;

      const skipped: CreatedRun["skipped"] = [];
      const debateIds: string[] = [];
      let withEarlierChecks = 0;
      const hash = promptsHash(protocol.templates(config));
      let position = 0;
      for (const rec of selected) {
        // The method's claim limit, in the words every entry point uses; a run skips the claim.
        const tooLong = claimLengthError(rec.claim, protocol.limits.claimChars);
        if (tooLong) {
          skipped.push({ id: rec.id, reason: tooLong });
          continue;
        }
        let evidence: DebateEvidence[];
        if (toolsOnly) {
          evidence = [];
        } else if (input.evidence.mode === "retrieved") {
          const hits = (
            await search(db, {
              text: rec.claim,
              corpus: corpus!.id,
              k: input.evidence.k,
              before: rec.date?.slice(0, 10),
              highlight: false,
              embedder: opts.embedder,
            })
          ).hits;
          evidence = hits.map((h) => ({
            rank: h.rank,
            text: h.text,
            source: "retrieved",
            title: h.document.title ?? undefined,
            url: h.document.url ?? undefined,
            passageId: h.passageId,
            externalId: h.passageExternalId,
            score: h.score,
            denseRank: h.dense?.rank,
            lexicalRank: h.lexical?.rank,
          }));
        } else {
          evidence = evidenceFor(rec, input.evidence.mode as "gold" | "supplied");
        }
        if (evidence.length === 0 && !toolsOnly) {
          skipped.push({
            id: rec.id,
            reason:
              input.evidence.mode === "retrieved"
                ? "the corpus has no passage for it"
                : `no ${input.evidence.mode} evidence in the claims file`,
          });
          continue;
        }
        const tooMuch = evidenceCountProblem(evidence.length);
        if (tooMuch) {
          // One claim with an impossible pool should not stop a run of thousands: it is reported with the skipped.
          skipped.push({ id: rec.id, reason: tooMuch });
          continue;
        }
        const claimId = await upsertClaim(db, input.dataset, rec);
        let matchDecision: MatchDecision | null = null;
        if (input.matchClaims) {
          matchDecision = await (opts.matchClaim ?? ((r: ClaimRecord) => matchRunClaim(db, r)))(rec);
          if (matchDecision.choice !== "no-match") withEarlierChecks++;
        }
        const { debateId } = await insertEvalItem(db, {
          runId,
          claimId,
          position: position++,
          protocol: protocol.name,
          variant,
          config: fullConfig,
          models,
          thresholds,
          promptsHash: hash,
          // A debate whose tools search is stored as retrieved evidence, as the form stores it.
          evidenceMode: input.evidence.mode === "tools" ? "retrieved" : input.evidence.mode,
          corpusId: corpus?.id ?? null,
          evidence,
          matchDecision,
        });
        debateIds.push(debateId);
        opts.onProgress?.(position + skipped.length, selected.length);
      }
      // Claims skipped above were never stored; the limit counted the whole selection, as before.
      return { runId, position, skipped, withEarlierChecks, debateIds, notStarted: skipped.length };
    },
  );
  const matching = input.matchClaims ? { claims: position, withEarlierChecks } : undefined;
  if (skipped.length || matching) {
    await db
      .update(s.evalRuns)
      .set({
        config: {
          ...(await runConfig(db, runId)),
          ...(skipped.length ? { skipped } : {}),
          ...(matching ? { matching } : {}),
        },
      })
      .where(eq(s.evalRuns.id, runId));
  }
  if (position === 0) throw new Error(`none of the ${selected.length} claims has evidence (${skipped[0]?.reason})`);
  return { runId, items: position, skipped, ...(matching ? { matching } : {}) };
}

async function runConfig(db: Database, runId: string) {
  const [r] = await db.select({ config: s.evalRuns.config }).from(s.evalRuns).where(eq(s.evalRuns.id, runId));
  return r!.config;
}

// --- cost preview ---------------------------------------------------------------------------

export type RunEstimate = {
  claims: number;
  /** Per claim, from the protocol's `estimate(config)` (worst case: every round run). */
  perClaim: CostEstimate;
  llmCalls: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** USD for all claims; null when a model has no known price (never shown as 0). */
  costUsd: number | null;
  unpricedModels: string[];
  models: Record<string, string>;
};

/**
 * What a run will cost before it starts: the protocol's per-claim estimate times the claims
 * selected, each role priced with its own model (lib/ai/prices.ts; PRICES_FILE extends it). Null
 * when the protocol gives no estimate. Model ids are only named, never resolved: nothing is loaded.
 */
export function estimateRun(
  input: Pick<CreateRunInput, "protocol" | "config" | "models" | "claims" | "sample">,
  prices: Record<string, Price> = loadPriceTable(getConfig().pricesFile),
): RunEstimate | null {
  const protocol = getProtocol(input.protocol);
  if (!protocol.estimate) return null;
  const config = protocol.parseConfig(input.config);
  const perClaim = protocol.estimate(config);
  const claims = selectClaims(input.claims, input.sample).length;
  const models: Record<string, string> = {};
  for (const role of protocol.roles(config)) models[role] = modelIdForRole(role, input.models[role] || undefined);
  const unpriced = new Set<string>();
  let usd: number | null = 0;
  const price = (model: string, promptTokens: number, completionTokens: number) => {
    const c = costOf(model, { promptTokens, completionTokens }, prices);
    if (c === null) unpriced.add(model);
    else if (usd !== null) usd += c;
  };
  if (perClaim.byRole && Object.keys(perClaim.byRole).length) {
    for (const [role, u] of Object.entries(perClaim.byRole))
      price(modelForRole(protocol, config, models, role), u.promptTokens * claims, u.completionTokens * claims);
  } else {
    // No split by role: priced with the judge's model (every protocol has one), as a single figure.
    price(
      models.judge ?? Object.values(models)[0]!,
      perClaim.promptTokens * claims,
      perClaim.completionTokens * claims,
    );
  }
  return {
    claims,
    perClaim,
    llmCalls: perClaim.llmCalls * claims,
    toolCalls: perClaim.toolCalls * claims,
    promptTokens: perClaim.promptTokens * claims,
    completionTokens: perClaim.completionTokens * claims,
    costUsd: unpriced.size ? null : usd,
    unpricedModels: [...unpriced],
    models,
  };
}
