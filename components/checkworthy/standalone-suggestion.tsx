"use client";

import { useState, useTransition } from "react";
import { suggestClaimAction } from "@/app/check-text/actions";
import { CONTEXT_AFTER, CONTEXT_BEFORE, type StandaloneSuggestion } from "@/lib/checkworthy/form";
import type { ScoredSentence } from "@/lib/checkworthy/types";

/**
 * Under a picked sentence's claim field, with a language model configured: asks the model for a
 * stand-alone wording (pronouns and relative dates resolved) and shows it as a suggestion. "Use
 * this wording" puts it in the claim field, where the user can still edit it; nothing changes
 * until they choose to. When the model could not resolve something, or gave no usable answer, the
 * page says so.
 */
export function StandaloneSuggestionBox({
  sentence,
  sentences,
  date,
  fieldId,
}: {
  sentence: ScoredSentence;
  sentences: readonly ScoredSentence[];
  date: string | null;
  fieldId: string;
}) {
  const [pending, startTransition] = useTransition();
  const [answer, setAnswer] = useState<StandaloneSuggestion | null>(null);
  const at = sentences.findIndex((s) => s.index === sentence.index);
  const around = sentences
    .slice(Math.max(0, at - CONTEXT_BEFORE), at + 1 + CONTEXT_AFTER)
    .map((s) => ({ index: s.index, text: s.text, speaker: s.speaker }));
  const ask = () =>
    startTransition(async () => {
      setAnswer(await suggestClaimAction({ sentences: around, index: sentence.index, date }));
    });
  const use = (claim: string) => {
    const field = document.getElementById(fieldId) as HTMLTextAreaElement | null;
    if (field) {
      field.value = claim;
      field.focus();
    }
  };
  return (
    <div className="mt-1 text-xs" data-testid="standalone">
      <button
        type="button"
        onClick={ask}
        disabled={pending}
        className="rounded border border-black/20 px-2 py-0.5 disabled:opacity-50"
      >
        {pending ? "Asking the model…" : "Suggest a stand-alone wording"}
      </button>
      {answer?.ok ? (
        <div className="mt-1 rounded bg-sky-50 p-2" data-testid="standalone-suggestion">
          <p>
            <span className="font-medium">Suggested:</span> {answer.claim}
          </p>
          {answer.unresolved.length ? (
            <p className="mt-1 text-amber-900">
              Could not resolve: {answer.unresolved.join("; ")}. Write these out yourself.
            </p>
          ) : null}
          <button
            type="button"
            onClick={() => use(answer.claim)}
            className="mt-1 rounded bg-black px-2 py-0.5 text-white"
          >
            Use this wording
          </button>
        </div>
      ) : null}
      {answer && !answer.ok ? (
        <p className="mt-1 text-amber-900" data-testid="standalone-problem">
          No suggestion: {answer.problem}. Edit the claim yourself.
        </p>
      ) : null}
    </div>
  );
}
