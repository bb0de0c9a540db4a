"use client";

import { findMethod } from "@/lib/debate/methods";
import { usdWords } from "@/lib/cost-words";
import { useRef, useState } from "react";
import { useFormEstimate } from "@/components/forms/use-form-estimate";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError } from "@/components/forms/form-errors";
import { claimCounter } from "@/components/forms/claim-counter";
import { ChoiceGroup, SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { estimateComparisonAction, startComparisonAction, type CompareState } from "@/app/compare/actions";
import type { CompareEstimate } from "@/lib/compare/form";
import { MatchStepNotice, MatchStepOrStart } from "@/components/matching/match-step";
import { MethodWords } from "./method-words";

const fmt = (n: number) => n.toLocaleString("en-US");
const MAX = 4;

/** The empty preset: the method's own default settings, in its definition's words. */
function defaultSettingsWords(method: string) {
  const title = findMethod(method)?.defaultSettingsTitle;
  return `${title ?? "default settings"}${title === "default settings" ? "" : " (default)"}`;
}

const ENSEMBLES = [
  { value: "", label: "No ensemble" },
  { value: "majority", label: "Majority vote" },
  { value: "confidence-weighted", label: "Vote weighted by each method's confidence" },
];

/**
 * "Compare methods": one claim, two to four methods at once, each with its own preset, an optional
 * ensemble vote, and what they cost together. Posts to app/compare/actions.ts; the debates start
 * together and the browser goes to the comparison page.
 */
export function ComparePicker({
  corpora,
  protocols,
  presets,
  initialClaim,
}: {
  corpora: Array<{ name: string; passages: number }>;
  protocols: Array<{ name: string; title: string; blurb: string }>;
  /** Each protocol's preset names; none chosen means the protocol's defaults. */
  presets: Record<string, string[]>;
  initialClaim?: string;
}) {
  const { state, pending, formProps } = useServerForm<CompareState>(startComparisonAction, {});
  const v = state.values ?? {};
  const [chosen, setChosen] = useState<string[]>(state.methods ?? []);
  const [claim, setClaim] = useState(v.claim ?? initialClaim ?? "");
  const small = { state, labelClassName: "block text-sm" };
  const [revision, setRevision] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const est = useFormEstimate<CompareEstimate>(
    revision,
    formRef,
    (form) => {
      const data = new FormData(form);
      const values = Object.fromEntries(
        [...data.entries()].filter(([k, x]) => typeof x === "string" && k !== "method"),
      ) as Record<string, string>;
      const methods = data.getAll("method").filter((m): m is string => typeof m === "string");
      return estimateComparisonAction(values, methods);
    },
    { ok: false, message: "The estimate could not be computed just now." },
  );

  const toggle = (name: string, on: boolean) =>
    setChosen((c) => (on ? [...c.filter((x) => x !== name), name] : c.filter((x) => x !== name)));
  const general =
    state.error &&
    (!state.field ||
      !["claim", "title", "claimDate", "corpus", "methods", "ensemble", "matchChoice"].some(
        (f) => state.field === f || state.field!.startsWith(`${f}.`),
      ));

  return (
    <form
      ref={formRef}
      {...formProps}
      className="space-y-6"
      noValidate
      onChange={() => setRevision((n) => n + 1)}
      data-testid="compare-form"
    >
      {general ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {state.error}
        </p>
      ) : null}
      {state.match ? <MatchStepNotice count={state.match.matches.length} /> : null}

      <fieldset>
        <legend className="font-medium">Methods to compare</legend>
        <p className="text-xs text-black/60">
          Choose two to four. Each runs its own debate on the same claim and corpus, all at once.
        </p>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {protocols.map((p) => {
            const on = chosen.includes(p.name);
            const names = presets[p.name] ?? [];
            return (
              <div
                key={p.name}
                className={`min-w-0 rounded-md border p-3 text-sm ${on ? "border-ink bg-white" : "border-black/15 bg-white/60"}`}
              >
                <label className="flex cursor-pointer gap-2">
                  <input
                    type="checkbox"
                    name="method"
                    value={p.name}
                    checked={on}
                    disabled={!on && chosen.length >= MAX}
                    onChange={(e) => toggle(p.name, e.target.checked)}
                    className="mt-1"
                  />
                  <MethodWords title={p.title} blurb={p.blurb} />
                </label>
                {on && names.length ? (
                  <SelectField
                    state={state}
                    name={`preset_${p.name}`}
                    label={
                      <>
                        Preset<span className="sr-only"> for {p.title}</span>
                      </>
                    }
                    defaultValue=""
                    options={[
                      { value: "", label: defaultSettingsWords(p.name) },
                      ...names.map((n) => ({ value: n, label: n })),
                    ]}
                    className="mt-2 text-xs"
                    labelClassName="block"
                    inputClassName="mt-1 block w-full max-w-full rounded-md border border-black/20 bg-white p-1.5 text-sm"
                  />
                ) : null}
              </div>
            );
          })}
        </div>
        {/* The refusal was about the methods as sent; once the ticks change it no longer applies. */}
        {(state.methods ?? []).join() === chosen.join() ? <FieldError state={state} field="methods" /> : null}
      </fieldset>

      <TextAreaField
        state={state}
        id="compare-claim"
        name="claim"
        label="Claim"
        labelClassName="block font-medium"
        hintClassName="mt-1 text-xs text-black/60"
        required
        rows={3}
        value={claim}
        onValueChange={setClaim}
        counter={claimCounter("compare-claim-count")}
        hint=". Quote the statement as it was made. ZoFia checks news articles: it reads your claim as a one-paragraph article (with the headline below, if you give one)."
        inputClassName="mt-1 w-full rounded-md border border-black/20 bg-white p-2"
      />

      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          {...small}
          id="compare-title"
          name="title"
          label={
            <>
              Headline <span className="text-black/60">(optional, read by ZoFia)</span>
            </>
          }
          className="min-w-0"
          inputClassName="mt-1 w-full rounded-md border border-black/20 bg-white p-2"
        />
        <TextField
          {...small}
          id="compare-claimDate"
          name="claimDate"
          type="date"
          label={
            <>
              Claim date <span className="text-black/60">(optional: evidence published later is left out)</span>
            </>
          }
          inputClassName="mt-1 rounded-md border border-black/20 bg-white p-2"
        />
      </div>

      <SelectField
        state={state}
        id="compare-corpus"
        name="corpus"
        label="Corpus"
        labelClassName="block font-medium"
        hint="Every method that reads evidence reads this one corpus. Only ZoFia can run without one (on web search)."
        hintAbove
        hintClassName="text-xs text-black/60"
        className="min-w-0"
        defaultValue={corpora[0]?.name ?? ""}
        options={[
          { value: "", label: "no corpus" },
          ...corpora.map((c) => ({ value: c.name, label: `${c.name} (${c.passages} passages)` })),
        ]}
        inputClassName="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2 sm:w-auto"
      />

      <ChoiceGroup
        state={state}
        type="radio"
        name="ensemble"
        legend="Ensemble verdict (optional)"
        legendClassName="font-medium"
        before={
          <p className="text-xs text-black/60">
            A vote over the methods&apos; verdicts, shown as its own row. It never replaces what each method said.
          </p>
        }
        className=""
        listClassName="mt-2 flex flex-col gap-2 text-sm sm:flex-row sm:flex-wrap sm:gap-4"
        itemClassName="flex items-center gap-2"
        boxClassName=""
        chosen={[""]}
        options={ENSEMBLES}
      />
      <div
        data-testid="compare-estimate"
        aria-live="polite"
        className="rounded-md border border-black/10 bg-white p-4 text-sm"
      >
        <p className="font-medium">Estimated cost of all methods together</p>
        {!est ? (
          <p className="mt-1 text-black/60">Estimating…</p>
        ) : !est.ok ? (
          <p className="mt-1 text-black/70">{est.message}</p>
        ) : (
          <>
            <p className="mt-1">
              Up to <strong>{fmt(est.llmCalls)} model calls</strong> and {fmt(est.toolCalls)} searches, about{" "}
              {fmt(est.tokens)} tokens ·{" "}
              {est.costUsd === null ? <strong>price unknown</strong> : <strong>{usdWords(est.costUsd)}</strong>}
              {est.unpriced.length ? (
                <span className="text-black/70"> (price unknown for {est.unpriced.join(", ")})</span>
              ) : null}
            </p>
            {est.missing.length ? (
              <p className="mt-1 text-xs text-black/60">
                No estimate before starting for {est.missing.join(", ")}: not counted above, so the total is a lower
                bound.
              </p>
            ) : null}
            <ul className="mt-1 text-xs text-black/70">
              {est.perMethod.map((m) => (
                <li key={m.protocol} className="break-words">
                  {protocols.find((p) => p.name === m.protocol)?.title ?? m.protocol}:{" "}
                  {m.estimate.ok
                    ? `${fmt(m.estimate.llmCalls)} calls, ~${fmt(m.estimate.promptTokens + m.estimate.completionTokens)} tokens, ${m.estimate.costUsd === null ? "price unknown" : usdWords(m.estimate.costUsd, { short: true })}`
                    : m.estimate.message}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>

      <MatchStepOrStart state={state} pending={pending}>
        {chosen.length >= 2 ? `Start ${chosen.length} debates` : "Start the comparison"}
      </MatchStepOrStart>
    </form>
  );
}
