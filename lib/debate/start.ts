import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { createDebateRecord } from "@/db/queries/debates";
import { findCorpus } from "@/db/queries/corpus";
import { modelIdForRole, resolveModel } from "@/lib/ai/registry";
import { promptsHash } from "@/lib/prompts";
import { search, SearchError } from "@/lib/retrieval/search";
import type { Embedder } from "@/lib/embeddings/registry";
import { getConfig } from "@/lib/config";
import { corpusToolSnapshot, searchToolSnapshot } from "@/lib/tools";
import { DEFAULT_PROTOCOL, getProtocol, PROTOCOL_NAMES } from "./protocols";
import { evidenceCountProblem } from "./evidence";
import type { DebateEvidence } from "./types";
import { claimLengthError } from "./claim-length";
import type { MatchDecision } from "@/lib/matching/types";
import { earlierCheckEvidence } from "@/lib/matching/decision";

/**
 * Everything that happens between "submit" and the first turn: validate the request, resolve a
 * model for every role, freeze the evidence pool (retrieved from a corpus or supplied with the
 * claim), and store claim, debate and evidence together. Used by the server action and the CLI.
 */

const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "use the form YYYY-MM-DD")
  .refine((d) => !Number.isNaN(Date.parse(d)), "not a real date");

export const startDebateSchema = z
  .object({
    claim: z.string().trim().min(10, "Write the claim as a full sentence (at least 10 characters)."),
    claimDate: isoDate.optional(),
    /** A news article's headline (ZoFia reads whole articles: `claim` is then the body). */
    title: z.string().trim().max(500, "Keep the headline under 500 characters.").optional(),
    /** Where the claim or article was published. */
    url: z.string().trim().url("Give the full address, starting with https://").max(2_000).optional(),
    evidence: z.discriminatedUnion("mode", [
      /** No starting pool: for protocols that find their own evidence with tools (upfrontEvidence false). */
      z.object({ mode: z.literal("none") }),
      z.object({
        mode: z.literal("retrieved"),
        corpus: z.string().trim().min(1, "Choose a corpus."),
        k: z.number().int().min(1).max(50).default(20),
      }),
      z.object({
        mode: z.literal("gold"),
        /** One passage per paragraph (blank-line separated). */
        text: z
          .string()
          .trim()
          .min(1, "Paste the evidence, one passage per paragraph.")
          .max(100_000, "Evidence text is limited to 100,000 characters."),
      }),
    ]),
    protocol: z.string().trim().default(DEFAULT_PROTOCOL),
    /** Validated by the protocol's own schema (lib/debate/protocols.ts). */
    config: z.record(z.string(), z.unknown()).default({}),
    /** Model id per role; roles left out use ROLE_MODELS, then DEFAULT_MODEL. */
    models: z.record(z.string(), z.string().trim()).default({}),
    /** Spending limits for this debate: past them the protocol wraps up (goes to its judge) with stop reason `budget`. */
    budget: z
      .object({
        budgetTokens: z
          .number()
          .int()
          .min(1_000, "A token budget below 1,000 cannot fit one turn and a verdict.")
          .optional(),
        maxCalls: z.number().int().min(2, "A debate needs at least two model calls (a turn and a verdict).").optional(),
      })
      .strict()
      .optional(),
  })
  .superRefine((req, ctx) => {
    // Checked against the registry as it is now (tests and plugins may register protocols after this module loads).
    if (!PROTOCOL_NAMES.includes(req.protocol)) {
      ctx.addIssue({
        code: "custom",
        message: `There is no debate protocol "${req.protocol}". Choose a protocol: ${PROTOCOL_NAMES.join(", ")}.`,
        path: ["protocol"],
      });
      return;
    }
    // The protocol's limit, with the same words as the form's live count (lib/debate/claim-length.ts), for the CLI and evaluation runs too.
    const protocol = getProtocol(req.protocol);
    const problem = claimLengthError(req.claim, protocol.limits.claimChars);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["claim"] });
    if (req.evidence.mode === "none" && protocol.upfrontEvidence !== false) {
      ctx.addIssue({
        code: "custom",
        message: `${protocol.title} debates over evidence: choose a corpus or paste the evidence.`,
        path: ["evidence", "mode"],
      });
    }
  });
export type StartDebateInput = z.input<typeof startDebateSchema>;

/** A problem with the request, said so that the form can show it next to the field. */
export class DebateRequestError extends Error {
  constructor(
    message: string,
    public readonly field?: string,
  ) {
    super(message);
    this.name = "DebateRequestError";
  }
}

export function splitGoldEvidence(text: string): DebateEvidence[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((t, i) => ({ rank: i + 1, text: t, source: "gold" as const }));
}

async function corpusIdOf(db: Database, corpusName: string): Promise<string> {
  const corpus = await findCorpus(db, corpusName);
  if (!corpus)
    throw new DebateRequestError(
      `There is no corpus named "${corpusName}". Load documents first, or paste gold evidence.`,
      "corpus",
    );
  return corpus.id;
}

async function retrieveEvidence(
  db: Database,
  claim: string,
  corpusName: string,
  k: number,
  before?: string,
  embedder?: Embedder,
): Promise<{ corpusId: string; evidence: DebateEvidence[] }> {
  const corpus = await findCorpus(db, corpusName);
  if (!corpus)
    throw new DebateRequestError(
      `There is no corpus named "${corpusName}". Load documents first, or paste gold evidence.`,
      "corpus",
    );
  let hits;
  try {
    hits = (await search(db, { text: claim, corpus: corpus.id, k, before, highlight: false, embedder })).hits;
  } catch (e) {
    if (e instanceof SearchError) throw new DebateRequestError(e.message, "corpus");
    throw e;
  }
  if (hits.length === 0) {
    throw new DebateRequestError(
      `Corpus "${corpusName}" has no passages for this claim${before ? ` published before ${before}` : ""}. Add documents, or paste gold evidence.`,
      "corpus",
    );
  }
  return {
    corpusId: corpus.id,
    evidence: hits.map((h) => ({
      rank: h.rank,
      text: h.text,
      source: "retrieved",
      title: h.document.title ?? undefined,
      url: h.document.url ?? undefined,
      publishedAt: h.document.publishedAt ?? undefined,
      passageId: h.passageId,
      externalId: h.passageExternalId,
      score: h.score,
      denseRank: h.dense?.rank,
      lexicalRank: h.lexical?.rank,
    })),
  };
}

/**
 * The protocol's `prepare` hook, given what it may read (calibrated thresholds per model), and the
 * tools it declared, frozen into `config.tools` so a resumed debate searches with what it started with.
 */
export async function prepareConfig(
  db: Database,
  protocol: ReturnType<typeof getProtocol>,
  config: unknown,
  models: Record<string, string>,
  corpus?: string | null,
) {
  let prepared = await prepareProtocol(db, protocol, config, models);
  if (protocol.embeds)
    prepared = {
      ...prepared,
      config: { ...(prepared.config as Record<string, unknown>), embedder: getConfig().embeddingModel },
    };
  if (!protocol.tools) return prepared;
  const tools = Object.fromEntries(
    Object.entries(protocol.tools).map(([name, source]) => [
      name,
      source === "corpus" ? corpusToolSnapshot(corpus ?? null) : searchToolSnapshot(getConfig().search, corpus ?? null),
    ]),
  );
  return { ...prepared, config: { ...(prepared.config as Record<string, unknown>), tools } };
}

async function prepareProtocol(
  db: Database,
  protocol: ReturnType<typeof getProtocol>,
  config: unknown,
  models: Record<string, string>,
) {
  if (!protocol.prepare) return { config, variant: null, thresholds: null };
  return protocol.prepare(config, {
    models,
    async calibratedFor(model) {
      const [row] = await db.select().from(s.modelThresholds).where(eq(s.modelThresholds.model, model));
      return row ? { tauS: row.tauS, tauV: row.tauV } : undefined;
    },
  });
}

/**
 * The request's own problems (its fields, the protocol's settings), said per field before anything
 * is looked up, stored or spent: the forms and the CLI ask this before matching the claim.
 */
export function checkDebateRequest(raw: unknown) {
  const parsed = startDebateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DebateRequestError(issue.message, issue.path.join("."));
  }
  const input = parsed.data;
  const protocol = getProtocol(input.protocol);
  const parsedConfig = protocol.configSchema.safeParse(input.config);
  if (!parsedConfig.success) {
    const issue = parsedConfig.error.issues[0]!;
    throw new DebateRequestError(
      `${protocol.title}: ${issue.path.join(".") || "configuration"}: ${issue.message}`,
      ["config", ...issue.path].join("."),
    );
  }
  return { input, protocol, config: parsedConfig.data };
}

export async function createDebate(
  db: Database,
  raw: unknown,
  /** `embedder` overrides the corpus's own embedding model for retrieval (tests, benchmarks). */
  /** `claimId` and `comparisonId`: one of a comparison's debates, on the claim the comparison stored once. */
  opts: {
    createdBy?: string | null;
    evalRunId?: string | null;
    embedder?: Embedder;
    claimId?: string;
    comparisonId?: string | null;
    /** Claim matching's outcome (lib/matching/before-start.ts): stored with the debate; attached checks join the pool. */
    matchDecision?: MatchDecision | null;
  } = {},
): Promise<string> {
  const { input, protocol, config } = checkDebateRequest(raw);

  const models: Record<string, string> = {};
  for (const role of protocol.roles(config)) {
    const explicit = input.models[role] || undefined;
    try {
      models[role] = modelIdForRole(role, explicit);
      resolveModel(models[role]!);
    } catch (e) {
      throw new DebateRequestError((e as Error).message, `models.${role}`);
    }
  }
  // A role that speaks with another's model by default (PROClaim's arbiter → miner) takes its own when one is named.
  for (const { role, usesModelOf } of protocol.roleSpecs(config)) {
    const explicit = input.models[role] || undefined;
    if (!usesModelOf || !explicit || models[role]) continue;
    try {
      models[role] = modelIdForRole(role, explicit);
      resolveModel(models[role]!);
    } catch (e) {
      throw new DebateRequestError((e as Error).message, `models.${role}`);
    }
  }

  const prepared = await prepareConfig(
    db,
    protocol,
    config,
    models,
    input.evidence.mode === "retrieved" ? input.evidence.corpus : null,
  );

  // A protocol that searches during the debate (Tool-MAD) starts with no pool: its corpus is only checked and remembered.
  const { corpusId, evidence }: { corpusId: string | null; evidence: DebateEvidence[] } =
    input.evidence.mode === "retrieved"
      ? protocol.upfrontEvidence === false
        ? { corpusId: await corpusIdOf(db, input.evidence.corpus), evidence: [] }
        : await retrieveEvidence(
            db,
            input.claim,
            input.evidence.corpus,
            input.evidence.k,
            input.claimDate,
            opts.embedder,
          )
      : input.evidence.mode === "gold"
        ? { corpusId: null, evidence: splitGoldEvidence(input.evidence.text) }
        : { corpusId: null, evidence: [] };
  // Earlier fact-checks the person chose to attach join the starting pool after what was retrieved or pasted.
  const decision = opts.matchDecision ?? null;
  if (decision?.choice === "attach-as-evidence")
    evidence.push(...earlierCheckEvidence(decision.attached, evidence.length + 1));
  const tooMuch = evidenceCountProblem(evidence.length);
  if (tooMuch) throw new DebateRequestError(tooMuch, "evidence.text");

  return createDebateRecord(db, {
    claim: {
      text: input.claim,
      claimDate: input.claimDate ? new Date(`${input.claimDate}T00:00:00Z`) : null,
      appearanceUrl: input.url ?? null,
      ...(input.title ? { metadata: { title: input.title } } : {}),
    },
    protocol: protocol.name,
    variant: prepared.variant,
    config: {
      ...(prepared.config as Record<string, unknown>),
      ...(input.budget && Object.keys(input.budget).length ? { budget: input.budget } : {}),
    },
    models,
    // The thresholds in force for this debate and where they came from (configured, calibrated, paper, default).
    thresholds: prepared.thresholds ?? null,
    promptsHash: promptsHash(protocol.templates(config)),
    evidenceMode: input.evidence.mode,
    corpusId,
    evalRunId: opts.evalRunId ?? null,
    claimId: opts.claimId,
    comparisonId: opts.comparisonId ?? null,
    createdBy: opts.createdBy ?? null,
    evidence,
    matchDecision: decision,
  });
}
