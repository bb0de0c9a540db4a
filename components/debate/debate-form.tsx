"use client";

import { useState } from "react";
import { useServerForm } from "@/components/forms/use-server-form";
import { startDebateAction, type StartState } from "@/app/debates/actions";
import { CostEstimate } from "./cost-estimate";
import { ArticleInput } from "./article-input";
import { methodViews, type MethodFormProps } from "./method-views";
import { DEFAULT_METHOD, findMethod } from "@/lib/debate/methods";
import { EvidenceFields } from "./evidence-fields";
import { ModelFields } from "./model-fields";
import { claimCount, claimLengthError } from "@/lib/debate/claim-length";
import { useSearchParams } from "next/navigation";
import { ComparePicker } from "./compare-picker";
import { MatchStepNotice, MatchStepPanel } from "@/components/matching/match-step";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { NumberField, TextAreaField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";

const BUDGET_INPUT = "mt-1 w-40 max-w-full rounded-md border border-black/20 bg-white p-2";

type FormProps = Parameters<typeof SingleDebateForm>[0] & {
  /** Each protocol's preset names, for "Compare methods"; without it every method runs its defaults. */
  comparePresets?: Record<string, string[]>;
};

/**
 * One method (the form as it always was), or, with "Compare methods" ticked, several methods on
 * the same claim at once (./compare-picker.tsx). `?compare=1` opens it ticked.
 */
export function DebateForm({ comparePresets, ...props }: FormProps) {
  const [compare, setCompare] = useState(useSearchParams()?.get("compare") === "1");
  const protocols = props.protocols ?? [];
  return (
    <div className="space-y-6">
      {protocols.length > 1 ? (
        <label className="flex items-start gap-2 rounded-md border border-black/10 bg-white p-3 text-sm">
          <input
            type="checkbox"
            checked={compare}
            onChange={(e) => setCompare(e.target.checked)}
            className="mt-1"
            data-testid="compare-toggle"
          />
          <span>
            <span className="block font-medium">Compare methods</span>
            <span className="block text-xs text-black/60">
              Put the same claim to two to four methods at once and see where they agree, what each cost and why.
            </span>
          </span>
        </label>
      ) : null}
      {compare && protocols.length > 1 ? (
        <ComparePicker
          corpora={props.corpora}
          protocols={protocols}
          presets={comparePresets ?? {}}
          initialClaim={props.initialClaim}
        />
      ) : (
        <SingleDebateForm {...props} />
      )}
    </div>
  );
}

function SingleDebateForm({
  corpora,
  models,
  defaults,
  examples,
  initialClaim,
  protocols = [],
  methodPresets = {},
  search = { label: "web search", live: false },
}: {
  corpora: Array<{ name: string; passages: number }>;
  models: string[];
  defaults: { default: string; roles: Record<string, string> };
  examples: string[];
  /** From `?claim=`: links elsewhere in the app open the form with a claim filled in. */
  initialClaim?: string;
  /** The protocols offered (RADAR first, the default). */
  protocols?: Array<{ name: string; title: string; blurb: string }>;
  /** Each method's presets the form offers, by method (its definition's `formPresets`). */
  methodPresets?: Record<string, MethodFormProps["presets"]>;
  search?: MethodFormProps["search"];
}) {
  const { state, pending, formProps } = useServerForm<StartState>(startDebateAction, {});
  const v = state.values ?? {};
  const [claim, setClaim] = useState(v.claim ?? initialClaim ?? "");
  const [protocol, setProtocol] = useState(v.protocol || DEFAULT_METHOD);
  // What the chosen method asks for comes from its definition and its views, never its name.
  const def = findMethod(protocol);
  const views = methodViews(protocol);
  // The method's fields point at `<field>-error` (aria-describedby), so the refusal keeps that id.
  const renderError = (field: string) => <FieldError state={state} field={field} id={`${field}-error`} />;
  // The fields that say their own refusal; any other (or none) is said at the top of the form.
  const shown = [
    "protocol",
    "claim",
    "claimDate",
    "corpus",
    "evidence",
    "models",
    "budget",
    "matchChoice",
    ...(views.formErrorFields ?? []),
  ];
  // Bumped on every change, so the cost preview recomputes from the form as it stands.
  const [revision, setRevision] = useState(0);
  return (
    <form {...formProps} className="space-y-6" noValidate onChange={() => setRevision((n) => n + 1)}>
      <FormError state={state} shown={shown} />
      {state.match ? <MatchStepNotice count={state.match.matches.length} /> : null}

      {protocols.length > 1 ? (
        <fieldset data-testid="protocol-picker">
          <legend className="font-medium">Method</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {protocols.map((p) => (
              <label
                key={p.name}
                className={`flex min-w-0 cursor-pointer gap-2 rounded-md border p-3 text-sm ${protocol === p.name ? "border-ink bg-white" : "border-black/15 bg-white/60"}`}
              >
                <input
                  type="radio"
                  name="protocol"
                  value={p.name}
                  checked={protocol === p.name}
                  onChange={() => setProtocol(p.name)}
                  className="mt-1"
                />
                <span className="min-w-0">
                  <span className="block font-medium">{p.title}</span>
                  <span className="block text-xs text-black/60">{p.blurb}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError state={state} field="protocol" />
        </fieldset>
      ) : (
        <input type="hidden" name="protocol" value={DEFAULT_METHOD} />
      )}

      {def?.input === "article" ? (
        <ArticleInput initial={v} error={state.error ? { field: state.field, message: state.error } : undefined} />
      ) : (
        <>
          <div>
            <TextAreaField
              state={state}
              name="claim"
              id="claim"
              label="Claim"
              labelClassName="block font-medium"
              hint=". Quote the statement as it was made."
              hintClassName="mt-1 text-xs text-black/60"
              counter={{ count: claimCount, over: claimLengthError, testId: "claim-count" }}
              value={claim}
              onValueChange={setClaim}
              required
              rows={3}
              inputClassName="mt-1 w-full rounded-md border border-black/20 bg-white p-2"
            />
            {examples.length ? (
              <div className="mt-2 flex flex-wrap gap-2 text-xs">
                <span className="text-black/60">Try:</span>
                {examples.map((ex) => (
                  <button
                    key={ex}
                    type="button"
                    className="max-w-full rounded-full border border-black/15 bg-white px-2 py-0.5 text-left hover:bg-black/5"
                    onClick={() => setClaim(ex)}
                  >
                    {ex.length > 70 ? `${ex.slice(0, 70)}…` : ex}
                  </button>
                ))}
              </div>
            ) : null}
          </div>

          <TextField
            state={state}
            name="claimDate"
            id="claimDate"
            type="date"
            label={
              <>
                Claim date{" "}
                <span className="font-normal text-black/60">(optional: evidence published later is left out)</span>
              </>
            }
            labelClassName="block font-medium"
            inputClassName="mt-1 rounded-md border border-black/20 bg-white p-2"
          />
        </>
      )}

      {views.FormFields ? (
        <views.FormFields
          corpora={corpora}
          models={models}
          defaults={defaults}
          values={v}
          renderError={renderError}
          presets={methodPresets[protocol] ?? []}
          search={search}
        />
      ) : (
        <>
          <EvidenceFields corpora={corpora} values={v} renderError={renderError} />
          <ModelFields
            roles={Object.keys(def?.roles ?? { judge: "Judge" })}
            models={models}
            defaults={defaults}
            values={v}
            renderError={renderError}
          />
        </>
      )}

      <details className="rounded-md border border-black/10 bg-white p-4" open={!!state.field?.startsWith("budget")}>
        <summary className="cursor-pointer font-medium">Budget (optional)</summary>
        <p className="mt-2 text-xs text-black/60">
          Past either limit the debate stops asking the agents and goes straight to its judge, and says so on the
          verdict.
        </p>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <NumberField
            state={state}
            name="budgetTokens"
            id="budgetTokens"
            errorField="budget.budgetTokens"
            label="Max tokens"
            labelClassName="block text-sm"
            min={1000}
            step={1000}
            placeholder="no limit"
            inputClassName={BUDGET_INPUT}
          />
          <NumberField
            state={state}
            name="maxCalls"
            id="maxCalls"
            errorField="budget.maxCalls"
            label="Max model calls"
            labelClassName="block text-sm"
            min={2}
            placeholder="no limit"
            inputClassName={BUDGET_INPUT}
          />
        </div>
      </details>

      {/* A method switch changes the estimate too: its position in the list is part of the revision. */}
      <CostEstimate revision={revision + (protocols.findIndex((p) => p.name === protocol) + 1) / 100} />

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
          Start debate
        </SubmitButton>
      )}
    </form>
  );
}
