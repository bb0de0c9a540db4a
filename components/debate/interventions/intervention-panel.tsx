"use client";

import { useEffect, useState } from "react";
import { interveneAction, searchPassagesAction } from "@/app/debates/[id]/intervention-actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FormError } from "@/components/forms/form-errors";
import { SubmitButton } from "@/components/ui/button";
import { type Counter, SelectField, TextAreaField, TextField } from "@/components/ui/field";
import {
  INTERVENTION_LIMITS,
  type InterventionKind,
  type InterventionView,
  type MethodInterventions,
} from "@/lib/debate/interventions/contract";
import type { InterventionFormState, PassageSearchState } from "./form-input";
import { closedAfterStart, KIND_TITLES, offeredKinds, rankOf } from "./read";

type Evidence = { rank: number; title: string | null; text: string };

/** A live count against a contract limit, and the service's own refusal once over it. */
const limitCounter = (max: number, what: string, testId: string): Counter => ({
  count: (t) => `${t.trim().length.toLocaleString("en")} of ${max.toLocaleString("en")} characters`,
  over: (t) => (t.trim().length > max ? `${what} is longer than ${max.toLocaleString("en")} characters.` : null),
  testId,
});

/** One kind's form: posts through the one action, hands the stored intervention up, and empties itself. */
function useIntervene(onDone: (i: InterventionView) => void) {
  const form = useServerForm<InterventionFormState>(interveneAction, {}, { clearOnSuccess: true });
  const stored = form.state.intervention;
  useEffect(() => {
    if (stored) onDone(stored);
  }, [stored, onDone]);
  return form;
}

const FIELDS_SHOWN = ["passageId", "url", "text", "title", "sourceUrl", "question", "evidenceRank", "reason", "q"];

function Done({ state }: { state: InterventionFormState }) {
  return (
    <>
      <FormError state={state} shown={FIELDS_SHOWN} testId="intervention-refusal" />
      {state.intervention ? (
        <p role="status" className="text-sm text-emerald-900" data-testid="intervention-sent">
          Sent: {state.intervention.summary}
          {state.intervention.status === "waiting" ? " It enters at the debate's next step." : ""}
        </p>
      ) : null}
    </>
  );
}

function AddEvidence({ id, onDone }: { id: string; onDone: (i: InterventionView) => void }) {
  const [from, setFrom] = useState<"corpus" | "url" | "text">("corpus");
  const { state, pending, formProps } = useIntervene(onDone);
  const found = useServerForm<PassageSearchState>(searchPassagesAction, {});
  const hits = found.state.hits ?? [];
  const froms = [
    ["corpus", "Corpus passage"],
    ["url", "Web address"],
    ["text", "Pasted text"],
  ] as const;
  return (
    <div className="space-y-3">
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="mb-1 font-medium">Where it comes from</legend>
        {froms.map(([value, label]) => (
          <label key={value} className="flex items-center gap-1.5">
            <input type="radio" name="evidence-from" checked={from === value} onChange={() => setFrom(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      {from === "corpus" ? (
        <form {...found.formProps} role="search" aria-label="Find a passage" className="flex items-end gap-2">
          <TextField
            state={found.state}
            name="q"
            id="intervene-q"
            label="Search the corpora"
            type="search"
            className="min-w-0 flex-1"
          />
          <SubmitButton pending={found.pending} busy="Searching…" look="secondary">
            Search
          </SubmitButton>
        </form>
      ) : null}
      <form {...formProps} className="space-y-3" aria-label="Add evidence">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="kind" value="add_evidence" />
        <input type="hidden" name="from" value={from} />
        {from === "corpus" ? (
          found.state.query ? (
            hits.length ? (
              <fieldset className="space-y-2 text-sm">
                <legend className="mb-1 font-medium">Pick a passage</legend>
                {hits.map((h) => (
                  <label key={h.passageId} className="flex items-start gap-2 rounded-md border border-black/10 p-2">
                    <input type="radio" name="passageId" value={h.passageId} className="mt-1" />
                    <span className="min-w-0 break-words">
                      <span className="font-medium">{h.title}</span>{" "}
                      <span className="text-xs text-black/60">({h.corpus})</span>
                      <span className="block text-black/80">{h.text}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            ) : (
              <p className="text-sm text-black/60">Nothing found for “{found.state.query}”. Try other words.</p>
            )
          ) : (
            <p className="text-sm text-black/60">Search, then pick the passage the agents missed.</p>
          )
        ) : from === "url" ? (
          <TextField
            state={state}
            name="url"
            id="intervene-url"
            label="Address of the page"
            type="url"
            placeholder="https://"
            hint="The server fetches it and checks it like any fetched page; private addresses are refused."
          />
        ) : (
          <>
            <TextField
              state={state}
              name="title"
              id="intervene-title"
              label="Source's name"
              maxLength={INTERVENTION_LIMITS.titleChars}
              hint="Say where it is from: “Council budget 2025, p. 12”."
            />
            <TextAreaField
              state={state}
              name="text"
              id="intervene-text"
              label="The text"
              rows={5}
              counter={limitCounter(INTERVENTION_LIMITS.evidenceChars, "The pasted text", "intervene-text-count")}
            />
            <TextField
              state={state}
              name="sourceUrl"
              id="intervene-source-url"
              label="Source's address (optional)"
              type="url"
            />
          </>
        )}
        <Done state={state} />
        {from === "corpus" && hits.length === 0 ? null : (
          <SubmitButton pending={pending} busy="Adding…">
            Add to the evidence
          </SubmitButton>
        )}
      </form>
    </div>
  );
}

function Ask({ id, onDone }: { id: string; onDone: (i: InterventionView) => void }) {
  const { state, pending, formProps } = useIntervene(onDone);
  return (
    <form {...formProps} className="space-y-3" aria-label="Ask a question">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="kind" value="ask" />
      <TextAreaField
        state={state}
        name="question"
        id="intervene-question"
        label="A question the next turn must address"
        rows={3}
        placeholder="Does the 40 % include capital spending?"
        counter={limitCounter(INTERVENTION_LIMITS.questionChars, "The question", "intervene-question-count")}
      />
      <Done state={state} />
      <SubmitButton pending={pending} busy="Asking…">
        Ask
      </SubmitButton>
    </form>
  );
}

function Strike({
  id,
  evidence,
  struck,
  onDone,
}: {
  id: string;
  evidence: Evidence[];
  struck: Set<number>;
  onDone: (i: InterventionView) => void;
}) {
  const { state, pending, formProps } = useIntervene(onDone);
  const left = evidence.filter((e) => !struck.has(e.rank));
  if (left.length === 0) return <p className="text-sm text-black/60">There is no source left to strike.</p>;
  return (
    <form {...formProps} className="space-y-3" aria-label="Strike a source">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="kind" value="strike" />
      <SelectField
        state={state}
        name="evidenceRank"
        id="intervene-rank"
        label="Passage to strike"
        options={[
          { value: "", label: "Choose a passage…" },
          ...left.map((e) => ({
            value: String(e.rank),
            label: `E${e.rank} · ${(e.title ?? e.text).slice(0, 60)}`,
          })),
        ]}
      />
      <TextField
        state={state}
        name="reason"
        id="intervene-reason"
        label="Why"
        maxLength={INTERVENTION_LIMITS.reasonChars}
        placeholder="anonymous blog"
        hint="Later turns no longer see it; the judge is told it was struck and why."
      />
      <Done state={state} />
      <SubmitButton pending={pending} busy="Striking…" look="danger">
        Strike
      </SubmitButton>
    </form>
  );
}

function Hold({ id, onDone }: { id: string; onDone: (i: InterventionView) => void }) {
  const { state, pending, formProps } = useIntervene(onDone);
  return (
    <form {...formProps} className="space-y-3" aria-label="Hold the verdict">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="kind" value="hold_verdict" />
      <p className="text-sm text-black/70">
        The judge waits before the verdict until you release it, so a late document can still be added.
      </p>
      <div className="flex flex-wrap gap-2">
        <SubmitButton pending={pending} name="hold" value="true" look="secondary">
          Hold the verdict
        </SubmitButton>
        <SubmitButton pending={pending} name="hold" value="false" look="secondary">
          Release it
        </SubmitButton>
      </div>
      <Done state={state} />
    </form>
  );
}

/**
 * The side panel for someone who may control the debate: only the kinds the method takes (its
 * definition's `interventions`), each a small form; the service's refusal shows beside it.
 */
export function InterventionPanel({
  debateId,
  declared,
  evidence,
  interventions,
  steps,
  onSent,
}: {
  debateId: string;
  /** Stored steps so far: a method that takes interventions only before the start closes after the first. */
  steps: number;
  declared: MethodInterventions;
  evidence: Evidence[];
  interventions: InterventionView[];
  onSent: (i: InterventionView) => void;
}) {
  const kinds = offeredKinds(declared);
  const [kind, setKind] = useState<InterventionKind>(kinds[0]!);
  const used = interventions.filter((i) => i.status !== "refused").length;
  const struck = new Set(
    interventions.flatMap((i) => {
      const rank = i.kind === "strike" && i.status !== "refused" ? rankOf(i) : null;
      return rank === null ? [] : [rank];
    }),
  );
  return (
    <section
      aria-labelledby="intervene-h"
      data-testid="intervention-panel"
      className="space-y-3 rounded-lg border border-black/10 bg-white p-3"
    >
      <div>
        <h2 id="intervene-h" className="text-sm font-semibold uppercase tracking-wide text-black/60">
          Intervene
        </h2>
        <p className="text-xs text-black/60">
          Enters {declared.enters}. On the record: everyone watching sees who added what. {used} of{" "}
          {INTERVENTION_LIMITS.perDebate} used.
        </p>
      </div>
      {closedAfterStart(declared, steps) ? (
        <p className="text-sm text-black/70" data-testid="intervention-closed">
          This method takes interventions only before the debate starts; it has started.
        </p>
      ) : null}
      <div
        className={`flex flex-wrap gap-1 ${closedAfterStart(declared, steps) ? "hidden" : ""}`}
        role="group"
        aria-label="What to do"
      >
        {kinds.map((k) => (
          <button
            key={k}
            type="button"
            aria-pressed={kind === k}
            onClick={() => setKind(k)}
            className={`rounded-md border px-2 py-1 text-sm ${kind === k ? "border-ink bg-ink text-white" : "border-black/20 bg-white"}`}
          >
            {KIND_TITLES[k]}
          </button>
        ))}
      </div>
      {closedAfterStart(declared, steps) ? null : kind === "add_evidence" ? (
        <AddEvidence id={debateId} onDone={onSent} />
      ) : kind === "ask" ? (
        <Ask id={debateId} onDone={onSent} />
      ) : kind === "strike" ? (
        <Strike id={debateId} evidence={evidence} struck={struck} onDone={onSent} />
      ) : (
        <Hold id={debateId} onDone={onSent} />
      )}
    </section>
  );
}
