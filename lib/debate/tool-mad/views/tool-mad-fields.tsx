"use client";

import { useState } from "react";
import { ModelSelect } from "@/components/debate/model-select";
import { agentName } from "./words";

/** What the page tells the form about Tool-MAD on this server. */
/** The label schemes the form offers, in words. */
export const TOOL_MAD_SCHEME_CHOICES = [
  { name: "fever", title: "FEVER: SUPPORTS / REFUTES / NOT ENOUGH INFO" },
  { name: "faviq", title: "FaVIQ: SUPPORTS / REFUTES" },
  { name: "averitec", title: "AVeriTeC: Supported / Refuted / Not Enough Evidence / Conflicting" },
  { name: "radar", title: "RADAR: TRUE / HALF-TRUE / FALSE" },
];

export type ToolMadFormInfo = {
  presets: Array<{ name: string; labels: string }>;
  schemes: Array<{ name: string; title: string }>;
  /** Where the search agent searches: the configured web provider, or the corpus stand-in. */
  search: { label: string; live: boolean };
};

const PRESET_HELP: Record<string, string> = {
  "toolmad-fever": "FEVER, 3 labels",
  "toolmad-feverous": "FEVEROUS, 2 labels",
  "toolmad-averitec": "AVeriTeC, 4 labels",
  "toolmad-faviq": "FaVIQ, 2 labels",
};

const agentKinds = (live: boolean) => [
  { value: "rag", text: "Corpus agent (searches the corpus)" },
  { value: "search", text: live ? "Search agent (searches the web)" : "Search agent (web stand-in: the corpus)" },
  { value: "vanilla", text: "No-tool agent (no search)" },
];

/** Role names as the protocol gives them: the first of a kind `rag-agent`, a second `rag-agent-2`. */
function rolesOf(agents: string[]) {
  const seen = new Map<string, number>();
  return agents.map((k) => {
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    return n === 1 ? `${k}-agent` : `${k}-agent-${n}`;
  });
}

const input = "mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2";

/**
 * Tool-MAD's part of the form: the corpus its corpus agent searches (no evidence is retrieved up
 * front), where the search agent searches, a preset and the main settings, and a model per role.
 */
export function ToolMadFields({
  info,
  corpora,
  models,
  defaults,
  values: v,
  renderError,
}: {
  info: ToolMadFormInfo;
  corpora: Array<{ name: string; passages: number }>;
  models: string[];
  defaults: { default: string; roles: Record<string, string> };
  values: Record<string, string>;
  renderError: (field: string) => React.ReactNode;
}) {
  const [preset, setPreset] = useState(v.preset ?? info.presets[0]?.name ?? "");
  const [labels, setLabels] = useState(v.labels ?? info.presets.find((p) => p.name === preset)?.labels ?? "fever");
  const [agents, setAgents] = useState<string[]>([v.agent_1 ?? "rag", v.agent_2 ?? "search", v.agent_3 ?? "none"]);
  const chosen = agents.filter((a) => a !== "none");
  const roles = [...rolesOf(chosen), "judge"];
  const searchUsed = chosen.includes("search");

  return (
    <>
      <input type="hidden" name="evidenceMode" value="retrieved" />
      <fieldset>
        <legend className="font-medium">Evidence</legend>
        <p className="mt-1 text-xs text-black/60">
          The agents find their own documents as they debate; nothing is retrieved in advance.
        </p>
        {corpora.length ? (
          <div className="mt-2 min-w-0 max-w-full">
            <label htmlFor="corpus" className="block text-sm">
              Corpus the corpus agent searches
            </label>
            <select id="corpus" name="corpus" defaultValue={v.corpus} className={`${input} sm:w-auto`}>
              {corpora.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name} ({c.passages} passages)
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p role="alert" className="mt-2 text-sm text-red-800">
            Tool-MAD needs a corpus for its corpus agent: load the demo corpus or your documents on the Corpora page.
          </p>
        )}
        <p
          data-testid="search-provider"
          className={`mt-2 rounded-md p-2 text-sm ${info.search.live ? "bg-black/5" : "bg-amber-50 text-amber-950"}`}
        >
          {info.search.live ? (
            <>
              The search agent searches the web with <strong>{info.search.label}</strong>.
            </>
          ) : (
            <>
              <strong>No web search configured:</strong> the search agent searches this corpus instead, and every result
              it finds is labelled “{info.search.label}”. An admin sets WEB_SEARCH_PROVIDER (and its key) to search the
              web.
            </>
          )}
          {searchUsed ? null : " (No search agent in this line-up.)"}
        </p>
        {renderError("corpus")}
        {renderError("evidence")}
      </fieldset>

      <fieldset>
        <legend className="font-medium">Settings</legend>
        <div className="mt-2 grid gap-4 sm:grid-cols-2">
          <div className="min-w-0">
            <label htmlFor="preset" className="block text-sm">
              Preset (the paper&apos;s set-up per dataset)
            </label>
            <select
              id="preset"
              name="preset"
              value={preset}
              onChange={(e) => {
                setPreset(e.target.value);
                const l = info.presets.find((p) => p.name === e.target.value)?.labels;
                if (l) setLabels(l);
              }}
              className={input}
            >
              {info.presets.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}: {PRESET_HELP[p.name] ?? p.labels}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0">
            <label htmlFor="labels" className="block text-sm">
              Labels the agents answer with
            </label>
            <select
              id="labels"
              name="labels"
              value={labels}
              onChange={(e) => setLabels(e.target.value)}
              className={input}
            >
              {info.schemes.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.title}
                </option>
              ))}
            </select>
            {renderError("config.labels")}
          </div>
          <div>
            <label htmlFor="rounds" className="block text-sm">
              Rounds at most
            </label>
            <input
              id="rounds"
              name="rounds"
              type="number"
              min={1}
              max={6}
              defaultValue={v.rounds ?? "3"}
              aria-describedby="config.rounds-error"
              className="mt-1 w-24 rounded-md border border-black/20 bg-white p-2"
            />
            <p className="mt-1 text-xs text-black/60">
              They stop earlier as soon as they agree and both answers pass the checks; otherwise the judge decides.
            </p>
            {renderError("config.rounds")}
          </div>
          <div className="min-w-0">
            <label htmlFor="gate" className="block text-sm">
              Check each answer (faithfulness and relevance)
            </label>
            <select id="gate" name="gate" defaultValue={v.gate ?? "on"} className={input}>
              <option value="on">on: both must pass (the paper)</option>
              <option value="off">off: equal labels suffice</option>
            </select>
            {renderError("config.gate")}
          </div>
        </div>
      </fieldset>

      <fieldset>
        <legend className="font-medium">Agents</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <div key={i} className="min-w-0">
              <label htmlFor={`agent_${i + 1}`} className="block text-sm">
                Agent {i + 1}
                {i === 2 ? " (optional)" : ""}
              </label>
              <select
                id={`agent_${i + 1}`}
                name={`agent_${i + 1}`}
                value={agents[i]}
                onChange={(e) => setAgents((a) => a.map((x, j) => (j === i ? e.target.value : x)))}
                className={input}
              >
                {i === 2 ? <option value="none">none</option> : null}
                {agentKinds(info.search.live).map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.text}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </div>
        {renderError("config.agents")}
      </fieldset>

      <fieldset>
        <legend className="font-medium">Models</legend>
        <p id="models-help" className="text-xs text-black/60">
          The models this server offers. The answer checks use the judge&apos;s model. An admin adds one with WEB_MODELS
          (or DEFAULT_MODEL / ROLE_MODELS).
        </p>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {roles.map((role) => (
            <div key={role} className="min-w-0">
              <label htmlFor={`model_${role}`} className="block text-sm">
                {role === "judge" ? "Judge (also runs the answer checks)" : agentName(role)}
              </label>
              <ModelSelect
                id={`model_${role}`}
                name={`model_${role}`}
                allowed={models}
                fallback={defaults.roles[role] || defaults.default || undefined}
                defaultValue={v[`model_${role}`]}
                describedBy="models-help"
                className={input}
              />
              {renderError(`models.${role}`)}
            </div>
          ))}
        </div>
      </fieldset>
    </>
  );
}
