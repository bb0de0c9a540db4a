import { z } from "zod";
import { renderPrompt } from "@/lib/prompts";
import type { SystemText } from "@/lib/prompts/text";
import type { Fence } from "@/lib/prompts/fence";
import { evidenceBlock } from "../evidence";
import type { DebateContext, DebateEvidence } from "../types";
import type { ToolMadConfig } from "./config";
import { answerRelevance, cosine, faithfulness, sentences } from "./gate";

/**
 * The stability scores of one answer (RAGAS-style, Tool-MAD design decisions §2 and §4):
 * faithfulness from atomic statements judged against the agent's own round documents, answer
 * relevance from questions generated from the answer and compared with the claim. Every step is
 * a stored turn whose phase names the agent, so two agents scored side by side replay correctly.
 */

/** The encoder τ_ar = 0.8 is read against here; any other makes AR "uncalibrated". */
export const CALIBRATED_EMBEDDER = "local:minilm-l6";
/** Embedding scorer: a statement counts as supported when some document sentence is this close. */
export const EMBEDDING_SUPPORT_COSINE = 0.6;
export const EMBEDDING_SCORER_LABEL = "approximation, not comparable";

export type StatementVerdict = { statement: string; verdict: 0 | 1; reason: string };
export type Scored = {
  F: number | null;
  AR: number | null;
  statements: StatementVerdict[];
  questions: Array<{ question: string; cosine: number }>;
  noncommittal: boolean | null;
  embedder: string | null;
  scorerKind: "llm" | "embedding";
  /** The embedding scorer's faithfulness is a stand-in, said so wherever it is shown. */
  scorerNote: string | null;
  uncalibrated: boolean;
  /** What could not be scored and why (an unparsed scorer answer), for the page. */
  problems: string[];
};

const statementsSchema = z.object({ statements: z.array(z.string().trim().min(1)) });
/** 0 or 1; models also write "1" or true, which mean the same and are not worth a repair call. */
const binary = z
  .union([z.literal(0), z.literal(1), z.literal("0"), z.literal("1"), z.boolean()])
  .transform((v): 0 | 1 => (v === 1 || v === "1" || v === true ? 1 : 0));
export const verdictsSchema = (n: number) =>
  z
    .array(z.object({ statement: z.string(), verdict: binary, reason: z.string().default("") }))
    .length(n, `expected exactly ${n} verdicts, one per statement in the same order`);
export const questionsSchema = (n: number) =>
  z.object({
    questions: z.array(z.string().trim().min(1)).length(n, `expected exactly ${n} questions`),
    noncommittal: z.boolean(),
  });

type Input = {
  ctx: DebateContext<ToolMadConfig>;
  fence: Fence;
  round: number;
  agent: string;
  answer: string;
  documents: readonly DebateEvidence[];
  system: SystemText;
  /** Called before each model call: throws once the debate's budget is spent. */
  guard?: () => void;
};

const meta = (step: string, agent: string) => ({ toolMad: { step, agent } });

export async function scoreAnswer(input: Input): Promise<Scored> {
  const { ctx } = input;
  const problems: string[] = [];
  const { statements, F } =
    ctx.config.scorer === "embedding" ? await embeddingFaithfulness(input) : await llmFaithfulness(input, problems);
  const relevance = await relevanceOf(input, problems);
  return {
    F,
    AR: relevance.AR,
    statements,
    questions: relevance.questions,
    noncommittal: relevance.noncommittal,
    embedder: relevance.embedder,
    scorerKind: ctx.config.scorer,
    scorerNote: ctx.config.scorer === "embedding" ? EMBEDDING_SCORER_LABEL : null,
    uncalibrated: relevance.embedder !== CALIBRATED_EMBEDDER,
    problems,
  };
}

async function llmFaithfulness(
  { ctx, fence, round, agent, answer, documents, system, guard }: Input,
  problems: string[],
) {
  const max = ctx.config.maxTurnTokens;
  guard?.();
  const split = await ctx.speakJson(
    {
      round,
      phase: `faithfulness-statements:${agent}`,
      role: "scorer",
      kind: "analysis",
      system,
      prompt: renderPrompt("tool-mad/faithfulness-statements", {
        claim: fence.wrap("claim", ctx.claim.text),
        answer: fence.wrap("answer", answer),
      }),
      maxOutputTokens: max,
      temperature: 0,
      metadata: meta("faithfulness-statements", agent),
    },
    statementsSchema,
  );
  if (!split.value) {
    problems.push(`statements could not be read: ${split.unparsed.error}`);
    return { statements: [], F: null };
  }
  const list = split.value.statements;
  // Nothing asserted: no verdict call, F is null and the gate fails.
  if (list.length === 0) return { statements: [], F: null };
  guard?.();
  const judged = await ctx.speakJson(
    {
      round,
      phase: `faithfulness-verdicts:${agent}`,
      role: "scorer",
      kind: "analysis",
      system,
      prompt: renderPrompt("tool-mad/faithfulness-verdicts", {
        documents: evidenceBlock(documents, fence),
        // The statements are a model's words: quoted, numbered inside the fence.
        statements: fence.wrap("answer", list.map((s, i) => `${i + 1}. ${s}`).join("\n")),
        count: list.length,
      }),
      maxOutputTokens: Math.max(max, 60 * list.length),
      temperature: 0,
      metadata: meta("faithfulness-verdicts", agent),
    },
    verdictsSchema(list.length),
  );
  if (!judged.value) {
    problems.push(`statement verdicts could not be read: ${judged.unparsed.error}`);
    return {
      statements: list.map((statement) => ({
        statement,
        verdict: 0 as const,
        reason: "not judged (unreadable scorer answer)",
      })),
      F: null,
    };
  }
  // The statements as split; the verdicts in their order (the model may reword a statement it repeats).
  const statements = list.map((statement, i) => ({
    statement,
    verdict: judged.value[i]!.verdict,
    reason: judged.value[i]!.reason,
  }));
  return { statements, F: faithfulness(statements.map((s) => s.verdict)) };
}

/** No model: each sentence of the answer is supported iff it is close to some sentence of the documents. */
async function embeddingFaithfulness({ ctx, round, agent, answer, documents }: Input) {
  // The label line is the agent's verdict, not a statement about the world.
  const body = answer
    .replace(/^[\s*#>_-]*\[?\s*ANSWER\s*\]?\s*[:：].*$/gim, " ")
    .replace(/\[\s*REASON\s*\]\s*[:：]/gi, " ");
  const claimed = sentences(body);
  if (claimed.length === 0) return { statements: [], F: null };
  const docSentences = documents.flatMap((d) => sentences(d.text));
  const { vectors } = await ctx.embed({
    round,
    phase: `faithfulness-embed:${agent}`,
    role: "scorer",
    texts: [...claimed, ...docSentences],
    metadata: meta("faithfulness-embed", agent),
  });
  const statements = claimed.map((statement, i) => {
    const best = docSentences.reduce((m, _, j) => Math.max(m, cosine(vectors[i]!, vectors[claimed.length + j]!)), -1);
    const verdict: 0 | 1 = best >= EMBEDDING_SUPPORT_COSINE ? 1 : 0;
    return {
      statement,
      verdict,
      reason: docSentences.length
        ? `closest document sentence: cosine ${best.toFixed(3)} (${EMBEDDING_SCORER_LABEL})`
        : "no documents",
    };
  });
  return { statements, F: faithfulness(statements.map((s) => s.verdict)) };
}

async function relevanceOf({ ctx, fence, round, agent, answer, system, guard }: Input, problems: string[]) {
  const n = ctx.config.arQuestions;
  guard?.();
  const asked = await ctx.speakJson(
    {
      round,
      phase: `relevance-questions:${agent}`,
      role: "scorer",
      kind: "analysis",
      system,
      prompt: renderPrompt("tool-mad/relevance-questions", { answer: fence.wrap("answer", answer), count: n }),
      maxOutputTokens: ctx.config.maxTurnTokens,
      temperature: 0,
      metadata: meta("relevance-questions", agent),
    },
    questionsSchema(n),
  );
  if (!asked.value) {
    problems.push(`relevance questions could not be read: ${asked.unparsed.error}`);
    return { AR: null, questions: [], noncommittal: null, embedder: null };
  }
  const qs = asked.value.questions;
  const { vectors, embedder } = await ctx.embed({
    round,
    phase: `relevance-embed:${agent}`,
    role: "scorer",
    texts: [ctx.claim.text, ...qs],
    metadata: meta("relevance-embed", agent),
  });
  const { AR, cosines } = answerRelevance(vectors[0]!, vectors.slice(1));
  return {
    AR,
    questions: qs.map((question, i) => ({ question, cosine: cosines[i]! })),
    noncommittal: asked.value.noncommittal,
    embedder,
  };
}
