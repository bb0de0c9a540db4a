"use client";

import { useState, type ReactNode } from "react";

/**
 * Where a debate's evidence comes from: a corpus (with top-k) or pasted gold passages. Shared by
 * the neutral form (a method without fields of its own) and any method's fields that use it.
 */
export function EvidenceFields({
  corpora,
  values,
  renderError,
}: {
  corpora: Array<{ name: string; passages: number }>;
  values: Record<string, string>;
  renderError: (field: string) => ReactNode;
}) {
  const [mode, setMode] = useState<"retrieved" | "gold">(
    (values.evidenceMode as "gold") ?? (corpora.length ? "retrieved" : "gold"),
  );
  return (
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
              defaultValue={values.corpus}
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
              defaultValue={values.k ?? "20"}
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
            defaultValue={values.goldEvidence}
            className="mt-1 w-full rounded-md border border-black/20 bg-white p-2"
          />
        </div>
      )}
      {!corpora.length ? (
        <p className="mt-2 text-xs text-black/60">
          No corpus yet: load the demo corpus or your documents on the Corpora page, or paste evidence.
        </p>
      ) : null}
      {renderError("corpus")}
      {renderError("evidence")}
    </fieldset>
  );
}
