"use client";

import { createFactCheckAction, moveFactCheckAction, saveFactCheckAction } from "@/app/fact-checks/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { listOf, type FormState } from "@/lib/forms/state";
import { PRODUCT_LABELS, PRODUCT_WORDS } from "@/lib/debate/methods";
import type { ProductLabel } from "@/lib/debate/types";
import { type ChangeEvent, useRef } from "react";
import { CheckboxField, SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { Outcome, SubmitButton } from "@/components/ui/button";

export type EditorValues = {
  claim: string;
  rating: string;
  textualRating: string;
  explanation: string;
  sources: string[];
  claimant: string;
  claimantKind: string;
  whereSaid: string;
  appearanceUrl: string;
  claimDate: string;
  showDebateLink: boolean;
};

export type CitableItem = { key: string; title: string; url: string | null; excerpt: string; method: string | null };

const INITIAL: FormState = {};
const SHOWN = [
  "claim",
  "rating",
  "textualRating",
  "explanation",
  "source",
  "claimant",
  "claimantKind",
  "whereSaid",
  "appearanceUrl",
  "claimDate",
  "correctionNote",
];
const input = "mt-1 block w-full rounded-md border border-black/20 px-2 py-1.5 text-base";
const labelText = "block text-sm font-medium";
const CLAIMANT_KINDS = [
  { value: "Person", label: "A person" },
  { value: "Organization", label: "An organisation" },
];
/** Who said it, where and when: the fields in the order the form shows them. */
const WHO_WHERE_WHEN = [
  { id: "fc-claimant", name: "claimant", label: "Who said it" },
  { id: "fc-kind", name: "claimantKind", label: "A person or an organisation" },
  { id: "fc-where", name: "whereSaid", label: "Where it was said", placeholder: "e.g. Interview on Radio 4" },
  { id: "fc-url", name: "appearanceUrl", type: "url", label: "Link to where it was said", placeholder: "https://…" },
  { id: "fc-date", name: "claimDate", type: "date", label: "When it was said" },
] as const;
const button = "rounded-md bg-black px-4 py-2 text-sm font-medium text-white hover:bg-black/80 disabled:opacity-60";

/**
 * The editor's form: the claim as reviewed, the rating (the product's scale and the words readers
 * see), the explanation in Markdown, the sources chosen from the debate's evidence, who said it
 * where and when. `mode` says what saving does: create the draft, save a new version, or publish a
 * correction (which asks for a note).
 */
export function EditorForm({
  mode,
  hidden,
  values,
  citable,
  suggestions,
  correctionWaits = false,
}: {
  mode: "create" | "edit" | "correct";
  /** A correction waits for a second editor's approval (the newsroom's setting) instead of being public at once. */
  correctionWaits?: boolean;
  hidden: Record<string, string>;
  values: EditorValues;
  citable: CitableItem[];
  suggestions: readonly string[];
}) {
  const action = mode === "create" ? createFactCheckAction : saveFactCheckAction;
  const { state, pending, formProps } = useServerForm(action, INITIAL);
  const chosen = listOf(state, "source") ?? values.sources;
  const field = { state, labelClassName: labelText, inputClassName: input };
  // The words readers see start as the scale's words (filled from the AI's verdict): while they are
  // still those words, they follow the scale, so choosing False never publishes "Half true" by mistake.
  // Words the editor typed are never replaced.
  const lastRating = useRef(String(state.values?.rating ?? values.rating));
  const followScale = (e: ChangeEvent<HTMLSelectElement>) => {
    const wordsOf = (l: string) => PRODUCT_WORDS[l as ProductLabel] ?? "";
    const before = wordsOf(lastRating.current);
    lastRating.current = e.target.value;
    const box = e.currentTarget.form?.elements.namedItem("textualRating");
    if (box instanceof HTMLInputElement && (box.value.trim() === "" || box.value === before))
      box.value = wordsOf(e.target.value);
  };
  return (
    <form {...formProps} className="space-y-5" noValidate data-testid="fact-check-form">
      {Object.entries(hidden).map(([k, val]) => (
        <input key={k} type="hidden" name={k} value={val} />
      ))}
      <FormError state={state} shown={SHOWN} />

      <TextAreaField
        {...field}
        id="fc-claim"
        name="claim"
        label="The claim, as it was made"
        rows={2}
        defaultValue={values.claim}
      />

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="sr-only">Rating</legend>
        <SelectField
          {...field}
          id="fc-rating"
          name="rating"
          label="Rating on the scale"
          defaultValue={values.rating}
          onChange={followScale}
          options={[
            { value: "", label: "Choose…" },
            ...PRODUCT_LABELS.map((l) => ({ value: l, label: PRODUCT_WORDS[l] })),
          ]}
        />
        <div>
          <TextField
            {...field}
            id="fc-textual"
            name="textualRating"
            label="Rating readers see"
            list="fc-textual-suggestions"
            defaultValue={values.textualRating}
            placeholder="e.g. Mostly false"
          />
          <datalist id="fc-textual-suggestions">
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </div>
      </fieldset>

      <TextAreaField
        {...field}
        id="fc-explanation"
        name="explanation"
        label="Explanation (Markdown: **bold**, _italic_, [links](https://…), lists, ## headings)"
        rows={10}
        defaultValue={values.explanation}
        inputClassName={`${input} font-mono text-sm`}
      />

      <fieldset className="space-y-2">
        <legend className={labelText}>Sources to cite, from the debate&apos;s evidence</legend>
        {citable.length === 0 ? (
          <p className="text-sm text-black/60">This debate had no evidence passages.</p>
        ) : (
          <ul className="max-h-96 space-y-2 overflow-y-auto rounded-md border border-black/10 p-2">
            {citable.map((c) => (
              <li key={c.key}>
                <label className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="source"
                    value={c.key}
                    defaultChecked={chosen.includes(c.key)}
                    className="mt-1 shrink-0"
                  />
                  <span className="min-w-0">
                    <span className="font-medium break-words">{c.title}</span>
                    {c.method ? <span className="text-black/60"> · {c.method}</span> : null}
                    <span className="block break-words text-black/70">{c.excerpt}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        <FieldError state={state} field="source" />
      </fieldset>

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className={`${labelText} mb-2`}>Who said it, where and when</legend>
        {WHO_WHERE_WHEN.map((f) =>
          f.name === "claimantKind" ? (
            <SelectField key={f.name} {...field} {...f} defaultValue={values.claimantKind} options={CLAIMANT_KINDS} />
          ) : (
            <TextField key={f.name} {...field} {...f} defaultValue={values[f.name]} />
          ),
        )}
      </fieldset>

      <CheckboxField
        state={state}
        name="showDebateLink"
        checked={values.showDebateLink}
        className="flex items-start gap-2 text-sm"
        label={
          <>
            Link the public page to the debate&apos;s read-only view (a share link is made when it is published, and can
            be revoked from the debate&apos;s page).
          </>
        }
      />

      {mode === "correct" ? (
        <TextAreaField
          {...field}
          id="fc-note"
          name="correctionNote"
          label="Correction note (readers see it with today's date)"
          rows={3}
          defaultValue=""
          placeholder="e.g. An earlier version gave the 2019 figure; the rating is unchanged."
        />
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} className={button}>
          {mode === "create"
            ? "Save draft"
            : mode === "edit"
              ? "Save new version"
              : correctionWaits
                ? "Send correction for approval"
                : "Publish correction"}
        </SubmitButton>
        <Outcome
          state={{ message: state.message }}
          messageClassName="text-sm text-green-900"
          testId="fact-check-saved"
        />
      </div>
    </form>
  );
}

/** Sending for review, publishing or approving: a button whose refusal ("you wrote this") is said beside it. */
export function MoveButton({
  id,
  seenVersion,
  move,
  label,
  note,
}: {
  id: string;
  seenVersion: number;
  move: "submit" | "publish";
  label: string;
  note?: string;
}) {
  const { state, pending, formProps } = useServerForm(moveFactCheckAction, INITIAL);
  return (
    <form {...formProps} className="space-y-1">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="seenVersion" value={seenVersion} />
      <input type="hidden" name="move" value={move} />
      <SubmitButton pending={pending} disabled={!!state.message} className={button} data-testid={`move-${move}`}>
        {label}
      </SubmitButton>
      {note ? <p className="text-xs text-black/60">{note}</p> : null}
      <Outcome state={state} errorClassName="text-sm text-red-900" messageClassName="text-sm text-green-900" />
    </form>
  );
}
