"use client";

import type { KeywordStep, NerStep, SalienceStep, WebStep, WikiStep } from "./read";

const f = (n: number | null | undefined, digits = 2) => (n === null || n === undefined ? "–" : n.toFixed(digits));

function Step({ n, title, children, testId }: { n: number; title: string; children: React.ReactNode; testId: string }) {
  return (
    <li className="min-w-0 rounded-lg border border-black/10 bg-white p-3" data-testid={testId}>
      <h3 className="text-sm font-semibold">
        <span className="mr-2 inline-flex h-5 w-5 items-center justify-center rounded-full bg-black/80 text-xs text-white">
          {n}
        </span>
        {title}
      </h3>
      <div className="mt-2 min-w-0 text-sm">{children}</div>
    </li>
  );
}

const TYPE_NAMES: Record<string, string> = { PER: "person", ORG: "organisation", LOC: "place", MISC: "other name" };

/** One chip per name and type: repeated mentions are counted, not listed again (kept if any mention was). */
/**
 * One row per name: a recogniser that tags the same name as two kinds (a person here, an
 * organisation there) still lists it once, under the kind it was most sure of.
 */
function mentions(units: NerStep["units"]) {
  const by = new Map<string, { text: string; type: string; confidence: number | null; kept: boolean; count: number }>();
  for (const u of units) {
    const m = by.get(u.text);
    if (!m) by.set(u.text, { text: u.text, type: u.type, confidence: u.confidence, kept: u.kept, count: 1 });
    else {
      m.count++;
      m.kept ||= u.kept;
      if ((u.confidence ?? -1) > (m.confidence ?? -1)) {
        m.confidence = u.confidence;
        m.type = u.type;
      }
    }
  }
  return [...by.values()];
}

const Waiting = ({ what }: { what: string }) => <p className="text-black/60">{what}…</p>;

/**
 * Stage 1 of ZoFia, no language model involved: named entities with their confidence, their
 * salience in the article, the SC-MMR picks one by one with λ_k, and the search that was sent.
 */
export function EntityPipeline({
  ner,
  salience,
  keywords,
  web,
  wiki,
  wikiOff,
  gamma,
  cutoff,
  keptBySeq = new Map(),
}: {
  ner: NerStep | null;
  salience: SalienceStep | null;
  keywords: KeywordStep | null;
  web: WebStep[];
  wiki: WikiStep[];
  wikiOff: WikiStep | null;
  gamma: number;
  cutoff: string | null;
  keptBySeq?: Map<number, number>;
}) {
  const picked = new Set(keywords?.keywords ?? []);
  return (
    <ol className="grid min-w-0 gap-3 lg:grid-cols-2" aria-label="Entity pipeline">
      <Step n={1} title="Named entities" testId="zofia-ner">
        {!ner ? (
          <Waiting what="Finding names, places and organisations" />
        ) : (
          <>
            <p className="text-xs text-black/60">
              {ner.label ?? ner.provider}
              {ner.heuristic ? (
                <span className="ml-1 rounded bg-amber-100 px-1 text-amber-900">
                  each name is a guess from how it is written, not a model&apos;s probability
                </span>
              ) : null}
              {ner.tau !== null ? ` · kept confidence ≥ ${f(ner.tau, 1)}` : ""}
              {ner.tauSteps.length > 1 ? ` (lowered from ${f(ner.tauSteps[0] ?? null, 1)} until one was kept)` : ""}
            </p>
            {ner.units.length === 0 ? (
              <p className="mt-1">No entities found: no keywords, so no search was sent.</p>
            ) : null}
            <ul className="mt-2 flex flex-wrap gap-1.5">
              {mentions(ner.units).map((u) => (
                <li
                  key={`${u.text}|${u.type}`}
                  className={`max-w-full break-words rounded border px-1.5 py-0.5 text-xs ${u.kept ? "border-black/30 bg-white" : "border-dashed border-black/20 text-black/60 line-through"}`}
                  title={`${TYPE_NAMES[u.type] ?? u.type}; ${u.kept ? "kept" : "below the confidence threshold"}${ner.heuristic ? `; rule-of-thumb score ${f(u.confidence)}` : ""}`}
                >
                  {u.text} <span className="text-black/60">{TYPE_NAMES[u.type] ?? u.type}</span>{" "}
                  {/* A rule-based recogniser's 1.0 is not a certainty: it is said as a guess, its score kept in the tooltip. */}
                  {ner.heuristic ? (
                    <span className="text-amber-900">guess</span>
                  ) : (
                    <span className="tabular-nums">{f(u.confidence)}</span>
                  )}
                  {u.count > 1 ? <span className="text-black/60"> ×{u.count}</span> : null}
                </li>
              ))}
            </ul>
            <p className="mt-1 text-xs text-black/60">Struck through: below the threshold. ×n: mentioned n times.</p>
          </>
        )}
      </Step>

      <Step n={2} title="Salience in the article" testId="zofia-salience">
        {!salience ? (
          <Waiting what="Measuring how central each entity is" />
        ) : (
          <>
            <p
              className="text-xs text-black/60"
              title={`S = cos(entity, its sentences) × cos(its sentences, article) · ${salience.embedder ?? "embedder unknown"}`}
            >
              How close each name&apos;s sentences are in meaning to the name and to the whole article, from 0 to 1
              {salience.uncalibrated ? (
                <span className="ml-1 rounded bg-amber-100 px-1 text-amber-900">
                  thresholds uncalibrated for this encoder
                </span>
              ) : null}
              {salience.truncated
                ? " · the article was longer than the encoder reads; its vector covers the beginning"
                : ""}
            </p>
            <ul className="mt-2 space-y-1">
              {[...salience.units]
                .sort((a, b) => (b.sHier ?? -1) - (a.sHier ?? -1))
                .map((u, i) => (
                  <li key={i} className="flex min-w-0 items-center gap-2 text-xs">
                    <span
                      className={`min-w-0 flex-1 truncate ${picked.has(u.text) ? "font-semibold" : ""}`}
                      title={u.text}
                    >
                      {u.text}
                    </span>
                    <span className="h-1.5 w-16 shrink-0 rounded bg-black/10" aria-hidden>
                      <span
                        className="block h-1.5 rounded bg-sky-700"
                        style={{ width: `${Math.max(0, Math.min(1, u.sHier ?? 0)) * 100}%` }}
                      />
                    </span>
                    <span className="w-10 shrink-0 text-right tabular-nums">{f(u.sHier)}</span>
                  </li>
                ))}
            </ul>
          </>
        )}
      </Step>

      <Step n={3} title="Keywords, picked one at a time" testId="zofia-keywords">
        {!keywords ? (
          <Waiting what="Picking keywords that are salient but not redundant" />
        ) : (
          <>
            <p className="text-xs text-black/60" title="SC-MMR: maximal marginal relevance with a falling weight λ_k">
              Each pick weighs how central a name is against how much it repeats what is already picked, the weight of
              the first falling with each pick; the picking stops when the best candidate scores no more than {gamma}×
              the previous pick
              {keywords.mmrPrevInit
                ? ` (first comparison against ${keywords.mmrPrevInit === "seed" ? "the seed's own score" : "1.0"})`
                : ""}
              .
            </p>
            <ol className="mt-2 space-y-1.5">
              {keywords.steps.map((s, i) => (
                <li key={i} className="rounded bg-black/[0.03] p-1.5 text-xs" data-testid="zofia-mmr-step">
                  <span className="font-medium">
                    k = {s.k ?? i}
                    {s.lambda !== null ? `, λ = ${f(s.lambda, 4)}` : " (seed: most salient)"}
                  </span>
                  {s.stop ? (
                    <span className="ml-2 text-amber-900">stop: best candidate scores too low</span>
                  ) : s.pick ? (
                    <span className="ml-2">
                      → picked <strong className="break-words">{s.pick}</strong>
                    </span>
                  ) : null}
                  {s.candidates.length ? (
                    <span className="mt-0.5 block break-words text-black/60">
                      {s.candidates
                        .slice(0, 6)
                        .map((c) => `${c.text} ${f(c.mmr, 3)}`)
                        .join(" · ")}
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
            <p className="mt-2 text-sm">
              Keywords:{" "}
              {keywords.keywords.length ? (
                keywords.keywords.map((k) => (
                  <span
                    key={k}
                    className="mr-1 inline-block rounded bg-sky-100 px-1.5 py-0.5 text-xs font-medium text-sky-950"
                  >
                    {k}
                  </span>
                ))
              ) : (
                <span className="text-black/60">none (no search)</span>
              )}
            </p>
          </>
        )}
      </Step>

      <Step n={4} title="Search sent" testId="zofia-search">
        {web.length === 0 ? (
          <Waiting what="Searching the web for all keywords together" />
        ) : (
          <ol className="space-y-2">
            {web.map((w) => (
              <li key={w.seq} className="min-w-0" data-testid="zofia-query">
                {w.skipped ? (
                  <p>No search sent: {w.skipped}.</p>
                ) : (
                  <>
                    <p className="break-words">
                      {w.phase === "web" ? "Query" : `Relaxed (dropped "${w.dropped ?? "?"}")`}:{" "}
                      <code className="break-words rounded bg-black/5 px-1">{w.query ?? "…"}</code>
                    </p>
                    <p className="text-xs text-black/60">
                      {w.status === "streaming"
                        ? "searching…"
                        : w.status === "failed"
                          ? `failed: ${w.error ?? "unknown error"}`
                          : `${w.results.length} ${w.results.length === 1 ? "result" : "results"}${keptBySeq.has(w.seq) && keptBySeq.get(w.seq) !== w.results.length ? `, ${keptBySeq.get(w.seq)} kept as evidence` : ""}`}
                      {w.label ? ` · ${w.label}` : ""}
                      {w.live === false ? " (not live)" : ""}
                      {w.before ? ` · published before ${w.before.slice(0, 10)}` : cutoff ? ` · cutoff ${cutoff}` : ""}
                      {w.excludeDomains.length
                        ? ` · excluding ${w.excludeDomains.length} news and encyclopedia sites`
                        : ""}
                    </p>
                  </>
                )}
              </li>
            ))}
          </ol>
        )}
        <div className="mt-3 border-t border-black/10 pt-2" data-testid="zofia-wiki">
          <p className="text-xs font-medium text-black/60">Encyclopedia</p>
          {wikiOff ? (
            <p className="text-sm">{wikiOff.note ?? "encyclopedia lookup unavailable"}</p>
          ) : wiki.length === 0 ? (
            <p className="text-sm text-black/60">not yet looked up</p>
          ) : (
            <ul className="space-y-1 text-xs">
              {wiki.map((w, i) => (
                <li key={i} className="break-words">
                  <strong>{w.keyword}</strong> → {w.chosen ?? "no entry"}
                  {w.candidates.length > 1 ? (
                    <span className="text-black/60">
                      {" "}
                      (of {w.candidates.length} senses, closest to the article&apos;s context)
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      </Step>
    </ol>
  );
}
