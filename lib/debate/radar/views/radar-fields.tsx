"use client";

import { useState } from "react";
import { RADAR_VARIANTS } from "@/lib/debate/radar/variants";
import type { MethodFormProps } from "@/components/debate/method-views";
import { EvidenceFields } from "@/components/debate/evidence-fields";
import { ModelFields } from "@/components/debate/model-fields";

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

/** RADAR's settings on the debate form: evidence, its debate variant (which decides the roles to pick models for), and its early stopping. */
export function RadarFields(p: MethodFormProps) {
  const [variant, setVariant] = useState(p.values.variant ?? "expertise");
  return (
    <>
      <EvidenceFields corpora={p.corpora} values={p.values} renderError={p.renderError} />
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
      <ModelFields
        roles={ROLES_BY_VARIANT[variant] ?? []}
        models={p.models}
        defaults={p.defaults}
        values={p.values}
        renderError={p.renderError}
      />
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
              defaultValue={p.values.rebuttals ?? "1"}
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
              defaultValue={p.values.earlyStopping ?? "on"}
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
              defaultValue={p.values.tauS}
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
              defaultValue={p.values.tauV}
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
              defaultValue={p.values.context ?? "paper"}
              className="mt-1 max-w-full rounded-md border border-black/20 p-2"
            >
              <option value="paper">the opponent&apos;s last statement (paper)</option>
              <option value="full">the whole transcript</option>
            </select>
          </div>
        </div>
        {p.renderError("config")}
      </details>
    </>
  );
}
