"use client";

/**
 * PROClaim's settings on the new-debate form, in place of RADAR's evidence and debate fields:
 * the trial retrieves from the chosen corpus itself (seed, discovery per premise, progressive
 * retrieval each round), so the choices are the corpus, a preset (the full method or an ablation)
 * and a cap on rounds. Fields: `evidenceMode` (retrieved), `corpus`, `proclaimPreset`, `maxRounds`.
 */
export function ProclaimFields({
  corpora,
  presets,
  values,
  renderError,
}: {
  corpora: Array<{ name: string; passages: number }>;
  presets: Array<{ name: string; title: string }>;
  values: Record<string, string | undefined>;
  renderError: (field: string) => React.ReactNode;
}) {
  return (
    <fieldset className="space-y-4" data-testid="proclaim-fields">
      <legend className="font-medium">The trial</legend>
      <p className="text-sm text-black/70">
        PROClaim tries the claim like a court case. The claim is split into premises; passages from the corpus are
        weighed and either admitted as evidence or refused; counsel for and against argue over rounds, may call expert
        witnesses and search for new passages; then they swap sides and argue again, and three judges vote. It is
        thorough and expensive: check the estimate below before starting.
      </p>
      {corpora.length ? (
        <div className="min-w-0 max-w-full">
          <input type="hidden" name="evidenceMode" value="retrieved" />
          <label htmlFor="proclaim-corpus" className="block text-sm">
            Corpus the court searches during the trial
          </label>
          <select
            id="proclaim-corpus"
            name="corpus"
            defaultValue={values.corpus}
            className="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2 sm:w-auto"
          >
            {corpora.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.passages} passages)
              </option>
            ))}
          </select>
          {renderError("corpus")}
        </div>
      ) : (
        <p className="text-sm text-red-800">
          No corpus yet: PROClaim needs one to search. Load the demo corpus or your documents on the Corpora page.
        </p>
      )}
      <div className="flex flex-wrap gap-4">
        <div className="min-w-0 max-w-full">
          <label htmlFor="proclaimPreset" className="block text-sm">
            Setting
          </label>
          <select
            id="proclaimPreset"
            name="proclaimPreset"
            defaultValue={values.proclaimPreset ?? ""}
            className="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2 sm:w-auto"
          >
            <option value="">Full method (the paper&apos;s)</option>
            {presets.map((p) => (
              <option key={p.name} value={p.name}>
                {p.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="maxRounds" className="block text-sm">
            Rounds per trial at most
          </label>
          <input
            id="maxRounds"
            name="maxRounds"
            type="number"
            min={1}
            max={20}
            defaultValue={values.maxRounds ?? "10"}
            className="mt-1 w-24 rounded-md border border-black/20 bg-white p-2"
          />
          {renderError("config.maxRounds")}
        </div>
      </div>
      <p className="text-xs text-black/60">
        A token budget (below) caps the cost: once it is spent the trial stops and goes straight to the three judges,
        and the verdict says so.
      </p>
    </fieldset>
  );
}
