import { z } from "zod";
import { callModel } from "@/lib/ai/call";
import { modelIdForRole, type ResolvedModel } from "@/lib/ai/registry";
import { readJsonAnswer } from "@/lib/debate/json-answer";
import { renderPrompt, renderSystem } from "@/lib/prompts";
import { newFence } from "@/lib/prompts/fence";
import { trustedNumber } from "@/lib/prompts/text";
import type { OfflineScorer } from "./offline";
import type { Sentence } from "./split";
import type { CheckworthyScorer, ScoredSentence, ScorerOptions } from "./types";

/**
 * The language-model scorer: sentences go to the model in batches, numbered inside one fence
 * (prompts/checkworthy/score.md), and come back with a 0-100 score and a reason each. The model
 * is the `checkworthy` role's (ROLE_MODELS=checkworthy=..., else DEFAULT_MODEL) unless one is named.
 * A sentence the answer leaves out, and every sentence of a batch whose answer cannot be read, is
 * scored offline instead, saying so, so one bad answer never loses the text.
 */

export const LLM_BATCH = 20;
/** Scores are asked for out of 100; 50 and above is check-worthy. */
export const LLM_THRESHOLD = 0.5;

const answerSchema = z.object({
  sentences: z.array(
    z.object({
      n: z.coerce.number().int(),
      score: z.coerce.number().min(0).max(100),
      reason: z.string().trim().max(400).default(""),
    }),
  ),
});

export class LlmScorer implements CheckworthyScorer {
  readonly name = "llm" as const;
  readonly threshold = LLM_THRESHOLD;
  // 30 model calls of LLM_BATCH sentences, one after another: minutes and money past this.
  readonly maxSentences = 600;
  private readonly model: string | ResolvedModel;

  constructor(
    private readonly fallback: OfflineScorer,
    opts: { model?: string | ResolvedModel; batchSize?: number } = {},
  ) {
    this.model = opts.model ?? modelIdForRole("checkworthy");
    this.batchSize = opts.batchSize ?? LLM_BATCH;
  }
  private readonly batchSize: number;

  get modelId(): string {
    return typeof this.model === "string" ? this.model : this.model.id;
  }

  async score(sentences: readonly Sentence[], opts: ScorerOptions = {}): Promise<ScoredSentence[]> {
    const out: ScoredSentence[] = [];
    for (let at = 0; at < sentences.length; at += this.batchSize)
      out.push(...(await this.scoreBatch(sentences.slice(at, at + this.batchSize), opts)));
    return out;
  }

  private async scoreBatch(batch: readonly Sentence[], opts: ScorerOptions): Promise<ScoredSentence[]> {
    const fence = newFence();
    const numbered = batch.map(
      (s, i) => `${i + 1}.${s.speaker ? ` (${s.speaker})` : ""} ${s.text.replace(/\s+/g, " ")}`,
    );
    const result = await callModel({
      model: this.model,
      purpose: "checkworthy:score",
      system: renderSystem("checkworthy/system-scorer", { fence_rule: fence.rule }),
      messages: [
        {
          role: "user",
          content: renderPrompt("checkworthy/score", {
            count: trustedNumber(batch.length),
            sentences: fence.wrap("article", numbered.join("\n")),
          }),
        },
      ],
      temperature: 0,
      maxOutputTokens: 60 * batch.length + 200,
      abortSignal: opts.signal,
    });
    const reading = readJsonAnswer(result.text, answerSchema);
    const byNumber = new Map(reading.ok ? reading.value.sentences.map((e) => [e.n, e]) : []);
    // The sentences the answer left out (or all, when it could not be read) are scored offline in one call.
    const missing = batch.filter((_, i) => !byNumber.has(i + 1));
    // Only the signal: embeddings a caller gave are for the whole list, not for the sentences left out.
    const offline = await this.fallback.score(missing, { signal: opts.signal });
    let next = 0;
    const why = reading.ok
      ? "the model left this sentence out"
      : `the model's answer could not be read: ${reading.problem}`;
    return batch.map((s, i) => {
      const entry = byNumber.get(i + 1);
      if (!entry) {
        const off = offline[next++]!;
        return { ...off, reason: `Scored offline (${why}). ${off.reason}` };
      }
      const score = entry.score / 100;
      return {
        ...s,
        score,
        checkworthy: score >= this.threshold,
        reason: entry.reason || "The model gave no reason.",
        scoredBy: "llm",
      };
    });
  }
}
