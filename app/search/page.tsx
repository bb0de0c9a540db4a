import Link from "next/link";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { listCorpora } from "@/db/queries/corpus";
import { SAMPLE_CORPUS_NAME } from "@/lib/corpus/sample";
import { search, SearchError, SEARCH_MODES, type SearchMode, type SearchResponse } from "@/lib/retrieval/search";
import { HighlightedText } from "@/components/search/highlighted-text";
import { isWeakMatch } from "@/lib/retrieval/match-strength";
import { plural } from "@/lib/plural";

export const dynamic = "force-dynamic";
export const metadata = { title: "Search" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

const MODE_LABELS: Record<SearchMode, string> = {
  hybrid: "Hybrid (meaning and words)",
  dense: "Dense (meaning)",
  lexical: "Lexical (words, BM25)",
};
const K_CHOICES = [5, 10, 20, 50];

const num = (n: number, digits: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(digits));

/** Where a hit's score comes from, in one line: "dense #3 (0.61) · lexical #12 (4.2) · RRF 0.0312". */
function scoreLine(mode: SearchMode, hit: SearchResponse["hits"][number]) {
  const dense = hit.dense
    ? `dense #${hit.dense.rank} (cosine ${num(hit.dense.score, 2)})`
    : mode === "lexical"
      ? null
      : "dense: not in top candidates";
  const lexical = hit.lexical
    ? `lexical #${hit.lexical.rank} (BM25 ${num(hit.lexical.score, 2)})`
    : mode === "dense"
      ? null
      : "lexical: no matching words";
  const fused = mode === "hybrid" ? `RRF ${hit.score.toFixed(4)}` : null;
  return [dense, lexical, fused].filter(Boolean).join(" · ");
}

/**
 * Rendered on the server from the query string (a GET form), so a search can be linked, bookmarked
 * and reloaded. It calls the same `search` that debates use: what is seen here is what agents get.
 */
export default async function SearchPage({ searchParams }: { searchParams: Promise<Search> }) {
  await pageReadDebates("/search");
  const sp = await searchParams;
  const { db } = await getDb();
  const corpora = await listCorpora(db);
  const q = one(sp.q);
  // Search pressed with nothing typed: say what to type instead of silently showing the empty form again.
  const emptyQuery = sp.q !== undefined && !q;
  const corpusParam = one(sp.corpus);
  const fallback = corpora.find((c) => c.name === SAMPLE_CORPUS_NAME)?.name ?? corpora[0]?.name ?? "";
  // "all" is chosen explicitly; no parameter at all means the likely corpus.
  const corpus = corpusParam === "all" ? "" : (corpusParam ?? fallback);
  const modeParam = one(sp.mode);
  const mode: SearchMode = SEARCH_MODES.includes(modeParam as SearchMode) ? (modeParam as SearchMode) : "hybrid";
  const kParam = Number(one(sp.k) ?? 10);
  const k = Number.isInteger(kParam) && kParam >= 1 && kParam <= 100 ? kParam : 10;
  const before = one(sp.before);
  const mmr = one(sp.mmr) === "1";

  let result: SearchResponse | null = null;
  let problem: string | null = null;
  if (q) {
    const chosen = corpora.find((c) => c.name === corpus);
    if (corpora.length === 0) problem = "There is no corpus to search yet.";
    else if (corpus && !chosen) problem = `There is no corpus named "${corpus}".`;
    else if (chosen && chosen.passages === 0)
      problem = `The corpus "${corpus}" has no passages yet: add documents to it first.`;
    else if (before && !/^\d{4}-\d{2}-\d{2}$/.test(before)) problem = `"${before}" is not a date (use YYYY-MM-DD).`;
    else {
      try {
        result = await search(db, {
          text: q,
          corpus: corpus || undefined,
          mode,
          k,
          before: before ? `${before}T00:00:00Z` : undefined,
          mmr,
        });
      } catch (e) {
        if (e instanceof SearchError) problem = e.message[0]!.toUpperCase() + e.message.slice(1) + ".";
        else {
          console.error("[search] failed:", e);
          problem = `The search failed: ${(e as Error).message}`;
        }
      }
    }
  }

  // Only where meaning decides: a lexical hit always shares a word with the query.
  const weakCount = result && result.mode !== "lexical" ? result.hits.filter(isWeakMatch).length : 0;
  const field = "mt-1 rounded-md border border-black/20 bg-white p-1.5 text-sm";
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Search the evidence</h1>
      {corpora.length === 0 ? (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          No corpus yet.{" "}
          <Link href="/corpora" className="font-medium underline">
            Load the demo corpus or add documents
          </Link>{" "}
          first.
        </p>
      ) : null}
      <form
        action="/search"
        method="get"
        role="search"
        className="grid gap-3 rounded-lg border border-black/10 bg-white p-3 sm:grid-cols-[minmax(0,1fr)_auto]"
      >
        <label className="flex flex-col text-sm sm:col-span-2">
          Query
          <input
            name="q"
            type="search"
            defaultValue={q}
            placeholder="A claim or a question"
            aria-invalid={emptyQuery || undefined}
            aria-describedby={emptyQuery ? "q-error" : undefined}
            className={`${field} text-base`}
          />
        </label>
        {emptyQuery ? (
          <p id="q-error" role="alert" className="text-sm text-red-800 sm:col-span-2" data-testid="search-empty">
            Type what to look for first: a claim, a question or a few words (for example a name and a number), then
            press Search.
          </p>
        ) : null}
        <div className="flex flex-wrap items-end gap-3 sm:col-span-2">
          <label className="flex flex-col text-xs">
            Corpus
            <select name="corpus" defaultValue={corpusParam === "all" ? "all" : corpus} className={field}>
              {corpora.map((c) => (
                <option key={c.id} value={c.name}>
                  {c.name} ({plural(c.passages, "passage")})
                </option>
              ))}
              {corpora.length > 1 ? <option value="all">all corpora</option> : null}
            </select>
          </label>
          <label className="flex flex-col text-xs">
            Mode
            <select name="mode" defaultValue={mode} className={field}>
              {SEARCH_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-xs">
            Results
            <select name="k" defaultValue={String(k)} className={field}>
              {[...new Set([...K_CHOICES, k])]
                .sort((a, b) => a - b)
                .map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
            </select>
          </label>
          <label className="flex flex-col text-xs">
            Published before
            <input type="date" name="before" defaultValue={before} className={field} />
          </label>
          <label className="flex items-center gap-2 self-center pt-4 text-sm">
            <input type="checkbox" name="mmr" value="1" defaultChecked={mmr} />
            Diversify (MMR)
          </label>
          <button type="submit" className="rounded-md bg-ink px-4 py-1.5 text-sm font-medium text-white hover:bg-black">
            Search
          </button>
        </div>
      </form>

      {problem ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900" data-testid="search-error">
          {problem}
        </p>
      ) : null}

      {result ? (
        <section aria-labelledby="results-title" className="space-y-3">
          <h2 id="results-title" className="text-sm text-black/60">
            {result.hits.length === 0 ? "No passages found." : plural(result.hits.length, "passage")} · {result.mode}
            {result.model ? ` · ${result.model}` : ""}
            {result.mmr ? ` · MMR λ ${result.mmr.lambda}` : ""} · {Math.round(result.timings.totalMs)} ms
            {result.queryWords.length ? ` · words searched: ${result.queryWords.join(", ")}` : ""}
          </h2>
          {weakCount > 0 ? (
            <p role="note" className="rounded-md bg-amber-50 p-3 text-sm text-amber-950" data-testid="weak-note">
              {weakCount === result.hits.length
                ? "None of these passages contains a word of your query, and none is close to it in meaning: this corpus may hold nothing on it. Try other words, or another corpus."
                : `${plural(weakCount, "passage")} below ${weakCount === 1 ? "is" : "are"} marked “weak match”: ${weakCount === 1 ? "it shares" : "they share"} no word with your query and ${weakCount === 1 ? "is" : "are"} only distantly related in meaning.`}
            </p>
          ) : null}
          <ol className="space-y-3" data-testid="search-results">
            {result.hits.map((hit) => (
              <li
                key={hit.passageId}
                className={`rounded-lg border bg-white p-4 ${result.mode !== "lexical" && isWeakMatch(hit) ? "border-dashed border-black/20 text-black/70" : "border-black/10"}`}
                data-testid="search-hit"
              >
                <div className="mb-2 flex flex-wrap items-baseline gap-x-3 gap-y-1">
                  <span className="text-sm font-semibold text-black/60">{hit.rank}.</span>
                  {result.mode !== "lexical" && isWeakMatch(hit) ? (
                    <span
                      className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900"
                      data-testid="weak-match"
                      title="No word of the query is in this passage, and its meaning is only distantly related."
                    >
                      weak match
                    </span>
                  ) : null}
                  {/* A plain link: the document page marks the passage with :target, which client-side navigation does not update. */}
                  <a
                    href={`/corpora/${encodeURIComponent(hit.corpus.name)}/documents/${hit.document.id}#p${hit.ordinal}`}
                    className="min-w-0 break-words font-medium underline-offset-2 hover:underline"
                  >
                    {hit.document.title ?? hit.document.externalId}
                  </a>
                  <span className="text-xs text-black/60">
                    {hit.document.publishedAt ? hit.document.publishedAt.slice(0, 10) : "undated"} · passage{" "}
                    {hit.ordinal + 1}
                    {corpus ? "" : ` · ${hit.corpus.name}`}
                  </span>
                </div>
                <p className="break-words">
                  <HighlightedText text={hit.text} highlights={hit.highlights} />
                </p>
                <p className="mt-2 font-mono text-xs text-black/60" data-testid="hit-scores">
                  {scoreLine(result.mode, hit)}
                </p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
