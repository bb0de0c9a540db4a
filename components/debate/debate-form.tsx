"use client";

import { useState } from "react";
import { useServerForm } from "@/components/forms/use-server-form";
import { startDebateAction, type StartState } from "@/app/debates/actions";
import { CostEstimate } from "./cost-estimate";
import { ArticleInput } from "./article-input";
import { methodViews, type MethodFormProps } from "./method-views";
import { DEFAULT_METHOD, findMethod } from "@/lib/debate/methods";
import { RADAR_VARIANTS } from "@/lib/debate/radar/variants";
import { ModelSelect } from "./model-select";
import { claimCount, claimLengthError, normaliseClaim } from "@/lib/debate/claim-length";
import { useSearchParams } from "next/navigation";
import { ComparePicker } from "./compare-picker";
import { MatchStepNotice, MatchStepPanel } from "@/components/matching/match-step";

const VARIANT_HELP: Record<string, string> = {
  expertise: "Politician and Scientist debate (the paper's default)",
  position: "Advocate must defend, Critic must attack",
  "three-agent": "adds a Journalist who speaks first",
  "four-agent": "adds a domain expert, field inferred from the claim",
  single: "one judge call, no debate",
  cot: "chain-of-thought baseline, one call",
};

const ROLES_BY_VARIANT: Record<string, string[]> = {
  expertise: ["politician", "scientist", "judge"],
  position: ["advocate", "critic", "judge"],
  "three-agent": ["journalist", "politician", "scientist", "judge"],
  "four-agent": ["journalist", "politician", "scientist", "domain-expert", "judge"],
  single: ["judge"],
  cot: ["judge"],
};

function FieldError({ state, field }: { state: StartState; field: string }) {
  if (!state.error || !state.field || !state.field.startsWith(field)) return null;
  return (
    <p id={`${field}-error`} role="alert" className="mt-1 text-sm text-red-800">
      {state.error}
    </p>
  );
}

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
  const [mode, setMode] = useState<"retrieved" | "gold">(
    (v.evidenceMode as "gold") ?? (corpora.length ? "retrieved" : "gold"),
  );
  const [variant, setVariant] = useState(v.variant ?? "expertise");
  const [protocol, setProtocol] = useState(v.protocol || DEFAULT_METHOD);
  // What the chosen method asks for comes from its definition and its views, never its name.
  const def = findMethod(protocol);
  const views = methodViews(protocol);
  // Bumped on every change, so the cost preview recomputes from the form as it stands.
  const [revision, setRevision] = useState(0);
  // Live, as the user types or pastes; the server refuses with the same words.
  const tooLong = claimLengthError(claim);
  const fieldError =
    state.field &&
    ![
      "claim",
      "claimDate",
      "corpus",
      "evidence",
      "models",
      "budget",
      "matchChoice",
      ...(views.formErrorFields ?? []),
    ].some((f) => state.field!.startsWith(f));

  return (
    <form {...formProps} className="space-y-6" noValidate onChange={() => setRevision((n) => n + 1)}>
      {state.error && (fieldError || !state.field) ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {state.error}
        </p>
      ) : null}
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
            <label htmlFor="claim" className="block font-medium">
              Claim
            </label>
            <textarea
              id="claim"
              name="claim"
              required
              rows={3}
              value={claim}
              onChange={(e) => setClaim(e.target.value)}
              aria-invalid={!!tooLong || state.field === "claim"}
              aria-describedby="claim-help claim-error"
              className={`mt-1 w-full rounded-md border bg-white p-2 ${tooLong ? "border-red-700" : "border-black/20"}`}
            />
            <p id="claim-help" className="mt-1 text-xs text-black/60">
              <span
                data-testid="claim-count"
                aria-live="polite"
                className={tooLong ? "font-medium text-red-800" : undefined}
              >
                {claimCount(claim)}
              </span>
              . Quote the statement as it was made.
            </p>
            {tooLong ? (
              <p id="claim-error" role="alert" className="mt-1 text-sm text-red-800">
                {tooLong}
              </p>
            ) : null}
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
            {/* The server's word on the claim holds for the text it saw; once the claim is edited the live check speaks. */}
            {tooLong || normaliseClaim(claim) !== normaliseClaim(state.values?.claim ?? claim) ? null : (
              <FieldError state={state} field="claim" />
            )}
          </div>

          <div>
            <label htmlFor="claimDate" className="block font-medium">
              Claim date{" "}
              <span className="font-normal text-black/60">(optional: evidence published later is left out)</span>
            </label>
            <input
              id="claimDate"
              name="claimDate"
              type="date"
              defaultValue={v.claimDate}
              className="mt-1 rounded-md border border-black/20 bg-white p-2"
            />
            <FieldError state={state} field="claimDate" />
          </div>
        </>
      )}

      {views.FormFields ? (
        <views.FormFields
          corpora={corpora}
          models={models}
          defaults={defaults}
          values={v}
          renderError={(field) => <FieldError state={state} field={field} />}
          presets={methodPresets[protocol] ?? []}
          search={search}
        />
      ) : (
        <>
          <fieldset>
            <legend className="font-medium">Evidence</legend>
            <div className="mt-2 flex flex-wrap gap-4 text-sm">
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="evidenceMode"
                  value="retrieved"
                  checked={mode === "retrieved"}
                  onChange={() => setMode("retrieved")}
                  disabled={!corpora.length}
                />
                Retrieve from a corpus
              </label>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="evidenceMode"
                  value="gold"
                  checked={mode === "gold"}
                  onChange={() => setMode("gold")}
                />
                Paste gold evidence
              </label>
            </div>
            {mode === "retrieved" ? (
              <div className="mt-3 flex flex-wrap gap-4">
                <div className="min-w-0 max-w-full">
                  <label htmlFor="corpus" className="block text-sm">
                    Corpus
                  </label>
                  <select
                    id="corpus"
                    name="corpus"
                    defaultValue={v.corpus}
                    className="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2"
                  >
                    {corpora.map((c) => (
                      <option key={c.name} value={c.name}>
                        {c.name} ({c.passages} passages)
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <label htmlFor="k" className="block text-sm">
                    Passages (top-k)
                  </label>
                  <input
                    id="k"
                    name="k"
                    type="number"
                    min={1}
                    max={50}
                    defaultValue={v.k ?? "20"}
                    className="mt-1 w-24 rounded-md border border-black/20 bg-white p-2"
                  />
                </div>
              </div>
            ) : (
              <div className="mt-3">
                <label htmlFor="goldEvidence" className="block text-sm">
                  Evidence passages, one per paragraph (separate with a blank line)
                </label>
                <textarea
                  id="goldEvidence"
                  name="goldEvidence"
                  rows={6}
                  defaultValue={v.goldEvidence}
                  className="mt-1 w-full rounded-md border border-black/20 bg-white p-2"
                />
              </div>
            )}
            {!corpora.length ? (
              <p className="mt-2 text-xs text-black/60">
                No corpus yet: load the demo corpus or your documents on the Corpora page, or paste evidence.
              </p>
            ) : null}
            <FieldError state={state} field="corpus" />
            <FieldError state={state} field="evidence" />
          </fieldset>

          <div>
            <label htmlFor="variant" className="block font-medium">
              Debate
            </label>
            <select
              id="variant"
              name="variant"
              value={variant}
              onChange={(e) => setVariant(e.target.value)}
              className="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2 sm:w-auto"
            >
              {RADAR_VARIANTS.map((x) => (
                <option key={x} value={x}>
                  {x}: {VARIANT_HELP[x]}
                </option>
              ))}
            </select>
          </div>

          <fieldset>
            <legend className="font-medium">Models</legend>
            <p id="models-help" className="text-xs text-black/60">
              The models this server offers. An admin adds one with WEB_MODELS (or DEFAULT_MODEL / ROLE_MODELS) in the
              server&apos;s environment.
            </p>
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              {(ROLES_BY_VARIANT[variant] ?? []).map((role) => (
                <div key={role} className="min-w-0">
                  <label htmlFor={`model_${role}`} className="block text-sm capitalize">
                    {role.replace("-", " ")}
                  </label>
                  <ModelSelect
                    id={`model_${role}`}
                    name={`model_${role}`}
                    allowed={models}
                    fallback={defaults.roles[role] || defaults.default || undefined}
                    defaultValue={v[`model_${role}`]}
                    describedBy="models-help"
                    className="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2"
                  />
                  <FieldError state={state} field={`models.${role}`} />
                </div>
              ))}
            </div>
          </fieldset>

          <details className="rounded-md border border-black/10 bg-white p-4">
            <summary className="cursor-pointer font-medium">Advanced</summary>
            <div className="mt-3 grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor="rebuttals" className="block text-sm">
                  Rebuttal rounds
                </label>
                <input
                  id="rebuttals"
                  name="rebuttals"
                  type="number"
                  min={0}
                  max={5}
                  defaultValue={v.rebuttals ?? "1"}
                  className="mt-1 w-24 rounded-md border border-black/20 p-2"
                />
              </div>
              <div>
                <label htmlFor="earlyStopping" className="block text-sm">
                  Early stopping
                </label>
                <select
                  id="earlyStopping"
                  name="earlyStopping"
                  defaultValue={v.earlyStopping ?? "on"}
                  className="mt-1 max-w-full rounded-md border border-black/20 p-2"
                >
                  <option value="on">on</option>
                  <option value="score-only">score every checkpoint, never stop</option>
                  <option value="off">off</option>
                </select>
              </div>
              <div>
                <label htmlFor="tauS" className="block text-sm">
                  Stop-margin threshold τs (-1..1)
                </label>
                <input
                  id="tauS"
                  name="tauS"
                  type="number"
                  step="0.05"
                  min={-1}
                  max={1}
                  defaultValue={v.tauS}
                  placeholder="model default"
                  className="mt-1 w-40 max-w-full rounded-md border border-black/20 p-2"
                />
              </div>
              <div>
                <label htmlFor="tauV" className="block text-sm">
                  Confidence threshold τv (0..1)
                </label>
                <input
                  id="tauV"
                  name="tauV"
                  type="number"
                  step="0.05"
                  min={0}
                  max={1}
                  defaultValue={v.tauV}
                  placeholder="model default"
                  className="mt-1 w-40 max-w-full rounded-md border border-black/20 p-2"
                />
              </div>
              <div>
                <label htmlFor="context" className="block text-sm">
                  What debaters see
                </label>
                <select
                  id="context"
                  name="context"
                  defaultValue={v.context ?? "paper"}
                  className="mt-1 max-w-full rounded-md border border-black/20 p-2"
                >
                  <option value="paper">the opponent&apos;s last statement (paper)</option>
                  <option value="full">the whole transcript</option>
                </select>
              </div>
            </div>
            <FieldError state={state} field="config" />
          </details>
        </>
      )}

      <details className="rounded-md border border-black/10 bg-white p-4" open={!!state.field?.startsWith("budget")}>
        <summary className="cursor-pointer font-medium">Budget (optional)</summary>
        <p className="mt-2 text-xs text-black/60">
          Past either limit the debate stops asking the agents and goes straight to its judge, and says so on the
          verdict.
        </p>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="budgetTokens" className="block text-sm">
              Max tokens
            </label>
            <input
              id="budgetTokens"
              name="budgetTokens"
              type="number"
              min={1000}
              step={1000}
              defaultValue={v.budgetTokens}
              placeholder="no limit"
              aria-describedby="budget.budgetTokens-error"
              className="mt-1 w-40 max-w-full rounded-md border border-black/20 bg-white p-2"
            />
            <FieldError state={state} field="budget.budgetTokens" />
          </div>
          <div>
            <label htmlFor="maxCalls" className="block text-sm">
              Max model calls
            </label>
            <input
              id="maxCalls"
              name="maxCalls"
              type="number"
              min={2}
              defaultValue={v.maxCalls}
              placeholder="no limit"
              aria-describedby="budget.maxCalls-error"
              className="mt-1 w-40 max-w-full rounded-md border border-black/20 bg-white p-2"
            />
            <FieldError state={state} field="budget.maxCalls" />
          </div>
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
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-ink px-4 py-2 font-medium text-white hover:bg-black disabled:opacity-60"
        >
          {pending ? "Starting…" : "Start debate"}
        </button>
      )}
    </form>
  );
}
