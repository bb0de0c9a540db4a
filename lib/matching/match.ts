import type { Database } from "@/db/client";
import { claimCandidateRows, countClaimsMissingVectors, type ClaimCandidateRow } from "@/db/queries/claim-index";
import { queryLexemes } from "@/db/queries/retrieval";
import { getSetting } from "@/db/queries/settings";
import { getConfig, type AppConfig } from "@/lib/config";
import type { Embedder } from "@/lib/embeddings/registry";
import type { Resolver } from "@/lib/net/safe-fetch";
import { cosineSimilarity, RRF_K } from "@/lib/retrieval/fusion";
import { getLexemeStats, idf } from "@/lib/retrieval/lexical-stats";
import { factCheckToolsConfigured, searchFactCheckTools } from "./factcheck-tools";
import { claimCandidates, MATCH_CANDIDATES } from "./retrieve";
import { features, similarity, type RescoreFeatures } from "./rescore";
import { ratingToScale } from "./scale";
import { embedMissingClaims, indexEmbedder, indexFinishedDebates } from "./store";
import { cleanClaimText, matchReasons, years } from "./text";
import { matchDifferences } from "./differences";
import { sameText } from "./likelihood";
import type { ClaimMatch, MatchOptions } from "./types";

/**
 * Has this claim been checked already? Retrieval over the matching index (hybrid: dense on the
 * claim's vector, BM25 on its words), then re-scoring to a similarity in [0, 1], a threshold,
 * a date window and reasons in words. Fact Check Tools is asked too, only when configured.
 */

export type MatchDeps = {
  db: Database;
  /** Default: the instance's embedding model (EMBEDDING_MODEL), the encoder the index was built with. */
  embedder?: Embedder;
  /** Default: getConfig(). */
  config?: Pick<AppConfig, "factcheckTools" | "fetch" | "organisation" | "embeddingModel">;
  /** DNS for the guarded fetcher (tests stub it). */
  resolve?: Resolver;
  signal?: AbortSignal;
};

export const DEFAULT_MATCH_LIMIT = 5;
/** Rows the first match embeds on the spot (new debates, a model change); more waits for `factchecks reindex`. */
const EMBED_ON_MATCH = 200;

export type MatchReport = {
  matches: ClaimMatch[];
  /** The threshold applied (the setting, or the caller's). */
  threshold: number;
  dateWindowDays: number;
  /** The incoming claim's date the window compared with, and where it came from. */
  queryDate: { date: string; from: "given" | "year in the text" } | null;
  /** Best candidates below the threshold, for "nothing matched; the closest was ...". */
  belowThreshold: ClaimMatch[];
  /** Things the user should know: a provider that failed, stored checks not yet searchable. */
  warnings: string[];
  sources: { index: number; factcheckTools: "not configured" | "asked" | "failed" };
  timings: { totalMs: number; embedMs: number; retrieveMs: number; factcheckToolsMs: number };
};

export class MatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MatchError";
  }
}

/** The contract (lib/matching/types.ts): matches at or above the threshold, best first. */
export async function matchClaim(deps: MatchDeps, text: string, options: MatchOptions = {}): Promise<ClaimMatch[]> {
  return (await matchClaimReport(deps, text, options)).matches;
}

function incomingDate(text: string, given: Date | null | undefined): MatchReport["queryDate"] {
  if (given) {
    if (Number.isNaN(given.getTime())) throw new MatchError("the claim's date is not a date");
    return { date: given.toISOString(), from: "given" };
  }
  // A claim "about 2019" with no date given: the middle of that year stands for its date.
  const ys = years(text);
  if (ys.length === 1) return { date: new Date(Date.UTC(ys[0]!, 6, 1)).toISOString(), from: "year in the text" };
  return null;
}

/**
 * Whether the two claims' dates are further apart than the window. Only a claim's own date counts:
 * the day a check was published is not when its claim was made, and a page that says "their claim's
 * date is unknown" must not then say "the two dates are far apart".
 */
export function outside(queryDate: MatchReport["queryDate"], m: Pick<ClaimMatch, "claimDate">, days: number) {
  if (!queryDate || !m.claimDate) return false;
  return Math.abs(new Date(m.claimDate).getTime() - new Date(queryDate.date).getTime()) > days * 86_400_000;
}

export async function matchClaimReport(
  deps: MatchDeps,
  text: string,
  options: MatchOptions = {},
): Promise<MatchReport> {
  const t0 = performance.now();
  const cleaned = cleanClaimText(text);
  if (!cleaned) throw new MatchError("the claim is empty");
  const prepared = await prepareMatching(deps, options);
  return matchPrepared(prepared, cleaned, undefined, t0);
}

/** What every claim of one call shares: the settings read and the index brought up to date once. */
type PreparedMatching = {
  deps: MatchDeps;
  config: NonNullable<MatchDeps["config"]>;
  options: MatchOptions;
  limit: number;
  threshold: number;
  dateWindowDays: number;
  embedder: Embedder;
  warnings: string[];
};

async function prepareMatching(deps: MatchDeps, options: MatchOptions): Promise<PreparedMatching> {
  const { db } = deps;
  const config = deps.config ?? getConfig();
  const limit = options.limit ?? DEFAULT_MATCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new MatchError(`limit must be a whole number from 1 to 100, got ${limit}`);
  const threshold = options.threshold ?? (await getSetting(db, "match_threshold"));
  if (!(threshold >= 0 && threshold <= 1)) throw new MatchError(`threshold must be within 0..1, got ${threshold}`);
  const dateWindowDays = await getSetting(db, "match_date_window_days");
  const warnings: string[] = [];
  const embedder = indexEmbedder(deps);
  await indexFinishedDebates(db);
  const missing = await countClaimsMissingVectors(db, embedder.id);
  if (missing > 0 && missing <= EMBED_ON_MATCH) await embedMissingClaims({ db, embedder }, { signal: deps.signal });
  else if (missing > EMBED_ON_MATCH)
    warnings.push(
      `${missing} stored checks have no ${embedder.id} vector yet and are found by their words only; run npx counterpoint factchecks reindex`,
    );
  return { deps, config, options, limit, threshold, dateWindowDays, embedder, warnings };
}

/** Claims matched at once in one call (the live desk's push): no more run side by side than this. */
const MATCH_CONCURRENCY = 4;

/**
 * Many claims matched in one call, reports in the same order: the settings are read and the index
 * is brought up to date once, the claims without a `vector` are embedded in one encoder call, and
 * up to MATCH_CONCURRENCY claims are retrieved side by side. `vector` is the claim's embedding by
 * `vectorModel`; it is used only when that is the index's encoder (otherwise the claim is embedded).
 */
export async function matchClaimsReport(
  deps: MatchDeps,
  claims: ReadonlyArray<{ text: string; vector?: readonly number[] }>,
  options: MatchOptions & { vectorModel?: string } = {},
): Promise<MatchReport[]> {
  if (!claims.length) return [];
  const t0 = performance.now();
  const cleaned = claims.map((c, i) => {
    const t = cleanClaimText(c.text);
    if (!t) throw new MatchError(`claim ${i + 1} is empty`);
    return t;
  });
  const prepared = await prepareMatching(deps, options);
  // A precomputed vector stands only for the text it was computed from, by the index's own encoder.
  const usable = (i: number) =>
    options.vectorModel === prepared.embedder.id && claims[i]!.vector && cleaned[i] === claims[i]!.text;
  const toEmbed = cleaned.flatMap((t, i) => (usable(i) ? [] : [i]));
  const vectors: Array<number[] | undefined> = claims.map((c, i) => (usable(i) ? [...c.vector!] : undefined));
  if (toEmbed.length) {
    const got = await prepared.embedder.embed(
      toEmbed.map((i) => cleaned[i]!),
      deps.signal,
    );
    toEmbed.forEach((i, k) => (vectors[i] = got[k]));
  }
  const out: MatchReport[] = new Array(claims.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < claims.length; i = next++)
      out[i] = await matchPrepared({ ...prepared, warnings: [...prepared.warnings] }, cleaned[i]!, vectors[i], t0);
  };
  await Promise.all(Array.from({ length: Math.min(MATCH_CONCURRENCY, claims.length) }, worker));
  return out;
}

async function matchPrepared(
  prepared: PreparedMatching,
  cleaned: string,
  vector: number[] | undefined,
  t0: number,
): Promise<MatchReport> {
  const { deps, config, options, limit, threshold, dateWindowDays, embedder, warnings } = prepared;
  const { db } = deps;
  const queryDate = incomingDate(cleaned, options.claimDate);

  // Fact Check Tools runs beside the local search, only when configured.
  const ft0 = performance.now();
  let ftMs = 0;
  const remote = factCheckToolsConfigured(config)
    ? searchFactCheckTools(config, cleaned, { resolve: deps.resolve, signal: deps.signal }).then(
        (r) => ((ftMs = performance.now() - ft0), { ok: true as const, results: r }),
        (e: Error) => ((ftMs = performance.now() - ft0), { ok: false as const, error: e.message }),
      )
    : null;

  const te = performance.now();
  const queryVector = vector ?? (await embedder.embed([cleaned], deps.signal))[0];
  const embedMs = performance.now() - te;
  const tr = performance.now();
  const scored = await rescoredCandidates(db, { text: cleaned, vector: queryVector!, model: embedder.id });
  const retrieveMs = performance.now() - tr;

  const all: ClaimMatch[] = scored.map((c) => ({
    source: c.row.source,
    ref: c.row.sourceRef,
    claim: c.row.claim,
    rating: c.row.rating,
    scale: (c.row.scale as ClaimMatch["scale"]) ?? null,
    publisher: c.row.publisher,
    url: c.row.url,
    claimDate: c.row.claimDate?.toISOString() ?? null,
    reviewDate: c.row.reviewDate?.toISOString() ?? null,
    similarity: c.similarity,
    reasons: matchReasons(cleaned, c.row.matchText),
    outsideDateWindow: false,
    queryDate: queryDate?.date ?? null,
  }));

  let factcheckTools: MatchReport["sources"]["factcheckTools"] = "not configured";
  if (remote) {
    const got = await remote;
    if (!got.ok) {
      factcheckTools = "failed";
      warnings.push(`${got.error}. Only this instance's checks are shown.`);
    } else {
      factcheckTools = "asked";
      const vectors = got.results.length
        ? await embedder.embed(
            got.results.map((r) => r.claim),
            deps.signal,
          )
        : [];
      const stats = await getLexemeStats(db, undefined, "claim_index");
      const qLex = await queryLexemes(db, cleaned);
      for (const [i, r] of got.results.entries()) {
        const lex = await queryLexemes(db, [r.title, r.claim].filter(Boolean).join(" "));
        const claimLex = await queryLexemes(db, r.claim);
        const f = features({
          cosine: vectors[i] ? cosineSimilarity(queryVector!, vectors[i]!) : null,
          queryLexemes: qLex,
          storedClaimLexemes: claimLex,
          storedAllLexemes: lex,
          idf: (l) => idf(stats, l),
          rrfScore: 0,
          rrfK: RRF_K,
        });
        all.push({
          source: "factcheck-tools",
          ref: r.url,
          claim: r.claim,
          rating: r.rating,
          scale: ratingToScale(r.rating),
          publisher: r.publisher,
          url: r.url,
          claimDate: r.claimDate,
          reviewDate: r.reviewDate,
          similarity: similarity(f),
          reasons: matchReasons(cleaned, `${r.title ?? ""} ${r.claim}`),
          outsideDateWindow: false,
          queryDate: queryDate?.date ?? null,
        });
      }
    }
  }
  for (const m of all) m.outsideDateWindow = outside(queryDate, m, dateWindowDays);
  all.sort((a, b) => b.similarity - a.similarity);
  const matches = all.filter((m) => m.similarity >= threshold).slice(0, limit);
  const belowThreshold = all.filter((m) => m.similarity < threshold).slice(0, 3);
  // Only what is shown (at most limit + 3 checks) is compared in detail.
  for (const m of [...matches, ...belowThreshold]) {
    m.sameText = sameText(cleaned, m.claim);
    m.differences = await matchDifferences(cleaned, m.claim);
  }
  return {
    matches,
    threshold,
    dateWindowDays,
    queryDate,
    belowThreshold,
    warnings,
    sources: { index: scored.length, factcheckTools },
    timings: { totalMs: performance.now() - t0, embedMs, retrieveMs, factcheckToolsMs: ftMs },
  };
}

export type RescoredCandidate = {
  id: number;
  row: ClaimCandidateRow;
  features: RescoreFeatures;
  similarity: number;
  dense: number | null;
  lexical: number | null;
};

/** Hybrid candidates from the index, each with its features and re-scored similarity, best first. */
export async function rescoredCandidates(
  db: Database,
  p: { text: string; vector: number[]; model: string; depth?: number },
): Promise<RescoredCandidate[]> {
  const [cands, qLex, stats] = await Promise.all([
    claimCandidates(db, {
      text: p.text,
      vector: { model: p.model, values: p.vector },
      depth: p.depth ?? MATCH_CANDIDATES,
    }),
    queryLexemes(db, p.text),
    getLexemeStats(db, undefined, "claim_index"),
  ]);
  const rows = await claimCandidateRows(
    db,
    cands.hybrid.map((h) => h.id),
    { model: p.model, vector: p.vector },
  );
  const out: RescoredCandidate[] = [];
  for (const h of cands.hybrid) {
    const row = rows.get(h.id);
    // Removed between search and hydration (an unpublished check): skipped, never invented.
    if (!row) continue;
    const f = features({
      cosine: row.cosine,
      queryLexemes: qLex,
      storedClaimLexemes: row.claimLexemes,
      storedAllLexemes: row.allLexemes,
      idf: (l) => idf(stats, l),
      rrfScore: h.score,
      rrfK: RRF_K,
    });
    out.push({
      id: h.id,
      row,
      features: f,
      similarity: similarity(f),
      dense: h.ranks[0] ?? null,
      lexical: h.ranks[1] ?? null,
    });
  }
  return out.sort((a, b) => b.similarity - a.similarity || a.id - b.id);
}
