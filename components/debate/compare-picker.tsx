"use client";

import { findMethod } from "@/lib/debate/methods";
import { usdWords } from "@/lib/cost-words";
import { useEffect, useRef, useState } from "react";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError } from "@/components/forms/form-errors";
import { claimCounter } from "@/components/forms/claim-counter";
import { ChoiceGroup, SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";
import { estimateComparisonAction, startComparisonAction, type CompareState } from "@/app/compare/actions";
import type { CompareEstimate } from "@/lib/compare/form";
import { MatchStepNotice, MatchStepPanel } from "@/components/matching/match-step";

const fmt = (n: number) => n.toLocaleString("en-US");
const MAX = 4;

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
  const [est, setEst] = useState<CompareEstimate | null>(null);
  const [revision, setRevision] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const asked = useRef(0);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const n = ++asked.current;
    const t = setTimeout(async () => {
      const data = new FormData(form);
      const values = Object.fromEntries(
        [...data.entries()].filter(([k, x]) => typeof x === "string" && k !== "method"),
      ) as Record<string, string>;
      const methods = data.getAll("method").filter((m): m is string => typeof m === "string");
      try {
        const out = await estimateComparisonAction(values, methods);
        if (n === asked.current) setEst(out);
      } catch {
        if (n === asked.current) setEst({ ok: false, message: "The estimate could not be computed just now." });
      }
    }, 250);
    return () => clearTimeout(t);
  }, [revision]);

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
                  <span className="min-w-0">
                    <span className="block font-medium">{p.title}</span>
                    <span className="block text-xs text-black/60">{p.blurb}</span>
                  </span>
                </label>
                {on && names.length ? (
                  <label className="mt-2 block text-xs">
                    Preset<span className="sr-only"> for {p.title}</span>
                    <select
                      name={`preset_${p.name}`}
                      defaultValue={v[`preset_${p.name}`] ?? ""}
                      className="mt-1 block w-full max-w-full rounded-md border border-black/20 bg-white p-1.5 text-sm"
                    >
                      <option value="">{`${findMethod(p.name)?.defaultSettingsTitle ?? "default settings"}${findMethod(p.name)?.defaultSettingsTitle === "default settings" ? "" : " (default)"}`}</option>
                      {names.map((n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </select>
                  </label>
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
          <p className="mb-2 text-xs text-black/60">
            A vote over the methods&apos; verdicts, shown as its own row. It never replaces what each method said.
          </p>
        }
        className="flex flex-col gap-2 text-sm sm:flex-row sm:flex-wrap sm:gap-x-4"
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

      {state.match ? (
        <MatchStepPanel
          step={state.match}
          claimDate={v.claimDate}
          error={state.field === "matchChoice" ? state.error : undefined}
          pending={pending}
        />
      ) : (
        <SubmitButton
          pending={pending}
          busy="Starting…"
          className="rounded-md bg-ink px-4 py-2 font-medium text-white hover:bg-black disabled:opacity-60"
        >
          {chosen.length >= 2 ? `Start ${chosen.length} debates` : "Start the comparison"}
        </SubmitButton>
      )}
    </form>
  );
}
