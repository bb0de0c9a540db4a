"use client";

import { createFactCheckAction, moveFactCheckAction, saveFactCheckAction } from "@/app/fact-checks/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { errorId } from "@/components/forms/form-errors";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { listOf, type FormState } from "@/lib/forms/state";
import { PRODUCT_LABELS, PRODUCT_WORDS } from "@/lib/debate/methods";
import type { ProductLabel } from "@/lib/debate/types";
import { type ChangeEvent, useRef } from "react";

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
  "whereSaid",
  "appearanceUrl",
  "claimDate",
  "correctionNote",
];
const input = "mt-1 block w-full rounded-md border border-black/20 px-2 py-1.5 text-base";
const labelText = "block text-sm font-medium";
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
  const v = (name: keyof EditorValues & string, fallback: string) => state.values?.[name] ?? fallback;
  const chosen = listOf(state, "source") ?? values.sources;
  const invalid = (f: string) => (state.field === f ? { "aria-invalid": true, "aria-describedby": errorId(f) } : {});
  // The words readers see start as the scale's words (filled from the AI's verdict): while they are
  // still those words, they follow the scale, so choosing False never publishes "Half true" by mistake.
  // Words the editor typed are never replaced.
  const textual = useRef<HTMLInputElement>(null);
  const lastRating = useRef(v("rating", values.rating));
  const followScale = (e: ChangeEvent<HTMLSelectElement>) => {
    const wordsOf = (l: string) => PRODUCT_WORDS[l as ProductLabel] ?? "";
    const before = wordsOf(lastRating.current);
    lastRating.current = e.target.value;
    const box = textual.current;
    if (box && (box.value.trim() === "" || box.value === before)) box.value = wordsOf(e.target.value);
  };
  return (
    <form {...formProps} className="space-y-5" noValidate data-testid="fact-check-form">
      {Object.entries(hidden).map(([k, val]) => (
        <input key={k} type="hidden" name={k} value={val} />
      ))}
      <FormError state={state} shown={SHOWN} />

      <div>
        <label className={labelText} htmlFor="fc-claim">
          The claim, as it was made
        </label>
        <textarea
          id="fc-claim"
          name="claim"
          rows={2}
          defaultValue={v("claim", values.claim)}
          className={input}
          {...invalid("claim")}
        />
        <FieldError state={state} field="claim" />
      </div>

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="sr-only">Rating</legend>
        <div>
          <label className={labelText} htmlFor="fc-rating">
            Rating on the scale
          </label>
          <select
            id="fc-rating"
            name="rating"
            defaultValue={v("rating", values.rating)}
            onChange={followScale}
            className={input}
            {...invalid("rating")}
          >
            <option value="">Choose…</option>
            {PRODUCT_LABELS.map((l) => (
              <option key={l} value={l}>
                {PRODUCT_WORDS[l]}
              </option>
            ))}
          </select>
          <FieldError state={state} field="rating" />
        </div>
        <div>
          <label className={labelText} htmlFor="fc-textual">
            Rating readers see
          </label>
          <input
            id="fc-textual"
            name="textualRating"
            ref={textual}
            list="fc-textual-suggestions"
            defaultValue={v("textualRating", values.textualRating)}
            placeholder="e.g. Mostly false"
            className={input}
            {...invalid("textualRating")}
          />
          <datalist id="fc-textual-suggestions">
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <FieldError state={state} field="textualRating" />
        </div>
      </fieldset>

      <div>
        <label className={labelText} htmlFor="fc-explanation">
          Explanation (Markdown: **bold**, _italic_, [links](https://…), lists, ## headings)
        </label>
        <textarea
          id="fc-explanation"
          name="explanation"
          rows={10}
          defaultValue={v("explanation", values.explanation)}
          className={`${input} font-mono text-sm`}
          {...invalid("explanation")}
        />
        <FieldError state={state} field="explanation" />
      </div>

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
        <div>
          <label className={labelText} htmlFor="fc-claimant">
            Who said it
          </label>
          <input
            id="fc-claimant"
            name="claimant"
            defaultValue={v("claimant", values.claimant)}
            className={input}
            {...invalid("claimant")}
          />
          <FieldError state={state} field="claimant" />
        </div>
        <div>
          <label className={labelText} htmlFor="fc-kind">
            A person or an organisation
          </label>
          <select
            id="fc-kind"
            name="claimantKind"
            defaultValue={v("claimantKind", values.claimantKind)}
            className={input}
          >
            <option value="Person">A person</option>
            <option value="Organization">An organisation</option>
          </select>
        </div>
        <div>
          <label className={labelText} htmlFor="fc-where">
            Where it was said
          </label>
          <input
            id="fc-where"
            name="whereSaid"
            defaultValue={v("whereSaid", values.whereSaid)}
            placeholder="e.g. Interview on Radio 4"
            className={input}
            {...invalid("whereSaid")}
          />
          <FieldError state={state} field="whereSaid" />
        </div>
        <div>
          <label className={labelText} htmlFor="fc-url">
            Link to where it was said
          </label>
          <input
            id="fc-url"
            name="appearanceUrl"
            type="url"
            defaultValue={v("appearanceUrl", values.appearanceUrl)}
            placeholder="https://…"
            className={input}
            {...invalid("appearanceUrl")}
          />
          <FieldError state={state} field="appearanceUrl" />
        </div>
        <div>
          <label className={labelText} htmlFor="fc-date">
            When it was said
          </label>
          <input
            id="fc-date"
            name="claimDate"
            type="date"
            defaultValue={v("claimDate", values.claimDate)}
            className={input}
            {...invalid("claimDate")}
          />
          <FieldError state={state} field="claimDate" />
        </div>
      </fieldset>

      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="showDebateLink"
          defaultChecked={state.values ? state.values.showDebateLink === "on" : values.showDebateLink}
          className="mt-1"
        />
        <span>
          Link the public page to the debate&apos;s read-only view (a share link is made when it is published, and can
          be revoked from the debate&apos;s page).
        </span>
      </label>

      {mode === "correct" ? (
        <div>
          <label className={labelText} htmlFor="fc-note">
            Correction note (readers see it with today&apos;s date)
          </label>
          <textarea
            id="fc-note"
            name="correctionNote"
            rows={3}
            defaultValue={state.values?.correctionNote ?? ""}
            placeholder="e.g. An earlier version gave the 2019 figure; the rating is unchanged."
            className={input}
            {...invalid("correctionNote")}
          />
          <FieldError state={state} field="correctionNote" />
        </div>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={button}>
          {mode === "create"
            ? "Save draft"
            : mode === "edit"
              ? "Save new version"
              : correctionWaits
                ? "Send correction for approval"
                : "Publish correction"}
        </button>
        {state.message ? (
          <p role="status" className="text-sm text-green-900" data-testid="fact-check-saved">
            {state.message}
          </p>
        ) : null}
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
      <button type="submit" disabled={pending || !!state.message} className={button} data-testid={`move-${move}`}>
        {label}
      </button>
      {note ? <p className="text-xs text-black/60">{note}</p> : null}
      <FormError state={state} shown={[]} className="text-sm text-red-900" />
      {state.message ? (
        <p role="status" className="text-sm text-green-900">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
