import { z } from "zod";
import { callModel } from "@/lib/ai/call";
import { modelIdForRole, type ResolvedModel } from "@/lib/ai/registry";
import { readJsonAnswer } from "@/lib/debate/json-answer";
import { renderPrompt, renderSystem } from "@/lib/prompts";
import { newFence } from "@/lib/prompts/fence";
import { CONTEXT_AFTER, CONTEXT_BEFORE, type StandaloneSuggestion } from "./form";
import type { Sentence } from "./split";

/**
 * A picked sentence as a claim that stands alone ("He cut it by 40 percent this year" → "Governor
 * Reyes said he cut the state health budget by 40 percent in 2024"): a language model resolves
 * pronouns and relative dates from the sentences around it and the text's date
 * (prompts/checkworthy/standalone.md; all of it untrusted, inside one fence). The page shows the
 * result as a suggestion to accept or edit, never as the claim itself, and says what the model
 * could not resolve or why there is no suggestion.
 */

const answerSchema = z.object({
  claim: z.string().trim().min(1).max(1000),
  unresolved: z.array(z.string().trim().max(300)).max(20).default([]),
});

export type StandaloneInput = {
  /** The text's sentences (as split on the page); `index` picks one. */
  sentences: readonly Pick<Sentence, "index" | "text" | "speaker">[];
  index: number;
  /** YYYY-MM-DD, when the text has a date. */
  date: string | null;
};

/** The fenced material: speaker, date, the sentences around the picked one, then the picked one. */
export function standaloneMaterial(input: StandaloneInput): string {
  const at = input.sentences.findIndex((s) => s.index === input.index);
  if (at < 0) throw new Error(`standaloneMaterial: no sentence ${input.index}`);
  const picked = input.sentences[at]!;
  const around = (from: number, to: number) =>
    input.sentences
      .slice(Math.max(0, from), Math.max(0, to))
      .map((s) => `${s.speaker ? `${s.speaker}: ` : ""}${s.text}`)
      .join("\n");
  return [
    `Speaker: ${picked.speaker ?? "not given"}`,
    `Date of the text: ${input.date ?? "not given"}`,
    `Before it:\n${around(at - CONTEXT_BEFORE, at) || "(nothing)"}`,
    `After it:\n${around(at + 1, at + 1 + CONTEXT_AFTER) || "(nothing)"}`,
    `Picked sentence: ${picked.text}`,
  ].join("\n\n");
}

export async function suggestStandalone(
  input: StandaloneInput,
  opts: { model?: string | ResolvedModel; signal?: AbortSignal } = {},
): Promise<StandaloneSuggestion> {
  const fence = newFence();
  const result = await callModel({
    model: opts.model ?? modelIdForRole("checkworthy"),
    purpose: "checkworthy:standalone",
    system: renderSystem("checkworthy/system-standalone", { fence_rule: fence.rule }),
    messages: [
      {
        role: "user",
        content: renderPrompt("checkworthy/standalone", { material: fence.wrap("article", standaloneMaterial(input)) }),
      },
    ],
    temperature: 0,
    maxOutputTokens: 400,
    abortSignal: opts.signal,
  });
  const reading = readJsonAnswer(result.text, answerSchema);
  if (!reading.ok) return { ok: false, problem: `the model's answer could not be read (${reading.problem})` };
  return { ok: true, claim: reading.value.claim.replace(/\s+/g, " "), unresolved: reading.value.unresolved };
}
