import type { Fence } from "@/lib/prompts/fence";
import { renderPrompt } from "@/lib/prompts";
import { joinPrompt, trustedText, type PromptText } from "@/lib/prompts/text";

/**
 * What a turn's prompt gains from people's interventions, before its own words: the questions it
 * must address, the passages a person added, and which sources were struck and why. Everything a
 * person typed is fenced (questions and reasons as arguments, passages as evidence); only the
 * struck passages' numbers are program-written. Pure, so the prompt-safety test renders it with
 * hostile text.
 */
export function interventionPromptParts(
  fence: Fence,
  input: {
    questions: readonly string[];
    passages: ReadonlyArray<{ rank: number; title?: string | null; text: string }>;
    struck: ReadonlyArray<{ rank: number; reason: string }>;
  },
): PromptText[] {
  const parts: PromptText[] = [];
  if (input.questions.length)
    parts.push(
      renderPrompt("engine/intervention-question", {
        questions: joinPrompt(
          input.questions.map((q) => fence.wrap("argument", q)),
          "\n",
        ),
      }),
    );
  if (input.passages.length)
    parts.push(
      renderPrompt("engine/intervention-evidence", {
        passages: fence.wrap(
          "evidence",
          input.passages
            .map((e) => `[E${e.rank}] (${e.title ?? "added by a person"}) ${e.text.replace(/\s+/g, " ").trim()}`)
            .join("\n"),
        ),
      }),
    );
  if (input.struck.length)
    parts.push(
      renderPrompt("engine/intervention-struck", {
        ranks: joinPrompt(
          input.struck.map((s) => trustedText`E${s.rank}`),
          ", ",
        ),
        reasons: fence.wrap("argument", input.struck.map((s) => `E${s.rank}: ${s.reason}`).join("\n")),
      }),
    );
  return parts;
}
