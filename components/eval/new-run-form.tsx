"use client";

import { useRef, useState } from "react";
import { createRunAction, type NewRunState } from "@/app/eval/new/actions";
import { DEFAULT_METHOD, getMethod, methodDefinitions, methodTitle } from "@/lib/debate/methods";
import { ModelSelect } from "@/components/debate/model-select";
import { formatFileLimit, MAX_CLAIMS_FILE_BYTES } from "@/lib/eval/limits";
import { formEntries } from "@/lib/forms/state";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { Field, FileField, NumberField, SelectField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";

/** Every registered method, in its definition's words. */
const PROTOCOL_CHOICES = methodDefinitions().map(
  (d) => [d.name, d.input === "article" ? `${d.title} (news articles)` : d.title] as const,
);
/** A single run from this page is the default method's: its variants and evaluation choices, as its definition gives them. */
const SINGLE = getMethod(DEFAULT_METHOD);
/** The methods that search for their own evidence, named in the help. */
const SEARCHERS = methodDefinitions()
  .filter((d) => d.bringsOwnEvidence)
  .map((d) => d.title);

const input = "mt-1 w-full min-w-0 rounded-md border border-black/20 bg-white p-2";
/** The fields that show their own refusal; any other refusal is shown above the form. */
const SHOWN = [
  "claims",
  "protocols",
  "name",
  "dataset",
  "evidence",
  "corpus",
  "k",
  "model_judge",
  "model_debaters",
  "limit",
  "seed",
  "budgetTokens",
  "budgetUsd",
];

/**
 * The claims file goes to the upload route first (streamed to disk; server action bodies are
 * limited to 2 MB), then the form's other fields go to the action with the upload's id. A refusal
 * at either step comes back with what was entered, the file's name included.
 */
async function uploadThenCreate(prev: NewRunState, form: FormData): Promise<NewRunState> {
  const file = form.get("claims");
  const chosen = file instanceof File && file.size > 0 ? file : null;
  const refused = (error: string): NewRunState => ({ error, field: "claims", ...formEntries(form, ["protocols"]) });
  if (chosen) {
    if (chosen.size > MAX_CLAIMS_FILE_BYTES)
      return refused(
        `${chosen.name} is larger than the ${formatFileLimit()} limit for claims files. Split it, or run it with npx counterpoint eval --claims <file>.`,
      );
    const res = await fetch(`/api/eval/uploads?filename=${encodeURIComponent(chosen.name)}`, {
      method: "POST",
      body: chosen,
    }).catch(() => null);
    if (!res)
      return refused(
        "The claims file could not be sent: the server did not answer. Check the connection and try again.",
      );
    const body = (await res.json().catch(() => ({}))) as { upload?: string; error?: string };
    if (!res.ok || !body.upload)
      return refused(body.error ?? `The claims file could not be stored (HTTP ${res.status}).`);
    form.delete("claims");
    form.set("upload", body.upload);
  }
  const state = await createRunAction(prev, form);
  // The server saw an upload id, not the file: the file's name is added back for "choose it again".
  return chosen ? { ...state, files: { ...state.files, claims: chosen.name } } : state;
}

export function NewRunForm({
  corpora,
  models = [],
  defaultModel,
}: {
  corpora: string[];
  models?: string[];
  defaultModel?: string;
}) {
  const { state, pending, formProps } = useServerForm<NewRunState>(uploadThenCreate, {});
  const v = state.values ?? {};
  const [evidence, setEvidence] = useState(v.evidence ?? "gold");
  const [protocols, setProtocols] = useState<string[]>(state.lists?.protocols ?? [DEFAULT_METHOD]);
  const file = useRef<HTMLInputElement>(null);
  const field = { state, className: "text-sm", labelClassName: "block", inputClassName: input };
  return (
    <form {...formProps} className="grid max-w-3xl gap-4 sm:grid-cols-2" noValidate data-testid="eval-form">
      <FormError
        state={state}
        shown={SHOWN}
        className="rounded-md bg-red-50 p-3 text-sm text-red-900 sm:col-span-2"
        testId="eval-error"
      />
      <FileField
        {...field}
        inputRef={file}
        id="eval-claims"
        name="claims"
        label={`Claims file (JSONL, up to ${formatFileLimit()})`}
        accept=".jsonl,application/jsonl,application/x-ndjson"
        required
        className="text-sm sm:col-span-2"
        inputClassName={input}
      />
      <fieldset className="text-sm sm:col-span-2" data-testid="eval-protocols">
        <legend>Methods</legend>
        <p className="text-xs text-black/60">
          {methodTitle(DEFAULT_METHOD)} alone makes one run. Tick two or more to compare them: one run each over the
          same claims, then a page that ranks them by accuracy and cost.
          {SEARCHERS.length
            ? ` Methods that search for their own evidence (${SEARCHERS.join(", ")}) search the corpus chosen below, or every corpus.`
            : ""}
        </p>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {PROTOCOL_CHOICES.map(([value, label]) => (
            <label key={value} className="inline-flex items-center gap-1">
              <input
                type="checkbox"
                name="protocols"
                value={value}
                checked={protocols.includes(value)}
                onChange={(e) =>
                  setProtocols((xs) => (e.target.checked ? [...xs, value] : xs.filter((x) => x !== value)))
                }
              />
              {label}
            </label>
          ))}
        </div>
        <FieldError state={state} field="protocols" />
      </fieldset>
      <TextField {...field} name="name" label="Run name" />
      <TextField {...field} name="dataset" label="Dataset name" placeholder="from the file name" />
      <SelectField
        {...field}
        name="evidence"
        label="Evidence"
        value={evidence}
        onChange={(e) => setEvidence(e.target.value)}
        options={[
          { value: "gold", label: "gold evidence from the file" },
          { value: "supplied", label: "supplied evidence from the file (e.g. the authors' top-20)" },
          { value: "retrieved", label: "retrieved from a corpus", disabled: !corpora.length },
        ]}
      />
      {evidence === "retrieved" ? (
        <SelectField {...field} name="corpus" label="Corpus" options={corpora.map((c) => ({ value: c, label: c }))} />
      ) : (
        <span className="hidden sm:block" />
      )}
      {SINGLE.variants?.length ? (
        <label className="text-sm">
          Variant
          <select name="variant" defaultValue={v.variant ?? SINGLE.variants[0]} className={input}>
            {SINGLE.variants.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </label>
      ) : null}
      {(SINGLE.evalOptions ?? []).map((o) => (
        <label key={o.name} className="text-sm">
          {o.label}
          <select name={o.name} defaultValue={v[o.name] ?? o.defaultValue} className={input}>
            {o.choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      {(
        [
          ["model_judge", "Judge model"],
          ["model_debaters", "Debaters' model"],
        ] as const
      ).map(([name, label]) => (
        <Field key={name} {...field} name={name} label={label}>
          {(attrs) => (
            <ModelSelect
              id={attrs.id}
              name={name}
              allowed={models}
              fallback={defaultModel}
              defaultValue={v[name]}
              describedBy={attrs["aria-describedby"]}
              className={input}
            />
          )}
        </Field>
      ))}
      {(
        [
          ["limit", "Limit (claims)", { min: 1 }],
          ["seed", "Seed", { defaultValue: "1" }],
          ["budgetTokens", "Budget: tokens", { min: 1 }],
          ["budgetUsd", "Budget: US dollars", { min: 0, step: "0.01" }],
        ] as const
      ).map(([name, label, attrs]) => (
        <NumberField key={name} {...field} {...attrs} name={name} label={label} />
      ))}
      <SelectField
        {...field}
        name="sample"
        label="Sample"
        defaultValue=""
        options={[
          { value: "", label: "first claims, in file order" },
          { value: "balanced", label: "balanced across labels" },
          { value: "random", label: "random" },
        ]}
      />
      <div className="sm:col-span-2">
        <SubmitButton
          pending={pending}
          busy="Creating…"
          className="rounded-md bg-ink px-4 py-2 font-medium text-white disabled:opacity-60"
        >
          {protocols.length > 1 ? `Compare ${protocols.length} methods` : "Start the run"}
        </SubmitButton>
      </div>
    </form>
  );
}
