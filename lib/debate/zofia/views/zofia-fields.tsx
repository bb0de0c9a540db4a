"use client";

/**
 * ZoFia's settings on the new-debate form, shown in place of RADAR's evidence and debate fields:
 * ZoFia finds its own evidence, so the only choice is where its offline web stand-in searches
 * (a corpus) when no web search is configured. Fields: `evidenceMode` (retrieved), `corpus`.
 */
export function ZofiaFields({
  corpora,
  defaultCorpus,
}: {
  corpora: Array<{ name: string; passages: number }>;
  defaultCorpus?: string;
}) {
  return (
    <fieldset className="space-y-2" data-testid="zofia-fields">
      <legend className="font-medium">Where ZoFia searches</legend>
      <p className="text-sm text-black/70">
        ZoFia picks the article&apos;s key names, searches for them once (web pages published before the article), reads
        them with a linguist, a domain expert and a claim checker, then lets an advocate and a critic debate until a
        judge decides: real or fake.
      </p>
      {corpora.length ? (
        <div className="min-w-0 max-w-full">
          <input type="hidden" name="evidenceMode" value="retrieved" />
          <label htmlFor="zofia-corpus" className="block text-sm">
            Corpus the offline stand-in for web search reads (used when no web search key is configured)
          </label>
          <select
            id="zofia-corpus"
            name="corpus"
            defaultValue={defaultCorpus}
            className="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2 sm:w-auto"
          >
            {corpora.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.passages} passages)
              </option>
            ))}
          </select>
        </div>
      ) : (
        <p className="text-sm text-black/60">
          No corpus yet: without a web search key the search finds nothing. Load the demo corpus or your documents on
          the Corpora page.
        </p>
      )}
    </fieldset>
  );
}
