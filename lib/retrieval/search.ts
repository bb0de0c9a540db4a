import type { Database } from "@/db/client";
import {
  bm25Candidates,
  denseCandidates,
  corporaWithPassages,
  findCorpora,
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  lexicalCandidates,
  passagesByIds,
  passageVectors,
  queryLexemes,
  queryWordStems,
  storedDimension,
  type Candidate,
  type DensePlan,
} from "@/db/queries/retrieval";
import { getConfig } from "@/lib/config";
import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";
import { getLexemeStats, idf, matchLexemes } from "./lexical-stats";
import { maximalMarginalRelevance, normalizeScores, reciprocalRankFusion, RRF_K } from "./fusion";
import { wordsForStems } from "./match-strength";

/**
 * The one retrieval function: debates, the CLI, the search box and the benchmark all call
 * `search`, so what a journalist sees in the app is what the agents were given.
 */

export const SEARCH_MODES = ["dense", "lexical", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Candidates per retriever before fusion (see docs/benchmarks.md, "Retrieval benchmark", for how it was chosen). */
export const DEFAULT_CANDIDATES = 100;
export const DEFAULT_K = 20;
export const DEFAULT_MMR_LAMBDA = 0.7;
/** BM25 candidates: passages the rarest query stems could match, at most about this many. */
export const DEFAULT_MATCH_BUDGET = 1_000;
/** Tuned on Check-COVID dev (0, 0.3, 0.5, 0.75, 1): sentences vary little in length, so weak normalisation wins. */
export const DEFAULT_BM25_B = 0.3;
export const LEXICAL_RANKINGS = ["bm25", "ts_rank_cd"] as const;
export type LexicalRanking = (typeof LEXICAL_RANKINGS)[number];

export type SearchQuery = {
  /** The claim or question, as typed. */
  text: string;
  /** Corpus names or ids; all corpora when omitted. */
  corpus?: string | string[];
  /** Restrict to these documents (ids from `documents.id`). */
  documentIds?: number[];
  /** The claim's date: passages published after it are excluded (undated passages are kept). */
  before?: Date | string;
  /** Number of hits; default 20. */
  k?: number;
  /** Default `hybrid`. */
  mode?: SearchMode;
  /** Re-rank the fused candidates for diversity; `true` uses lambda 0.7 over max(3k, 50) candidates. */
  mmr?: boolean | { lambda?: number; pool?: number };
  /** Candidates taken from each retriever before fusion; default 100. */
  candidates?: number;
  /** The RRF constant; default 60. */
  rrfK?: number;
  /** Per-retriever RRF weights, default 1 each. */
  weights?: { dense?: number; lexical?: number };
  /**
   * `bm25` (default): IDF-weighted, so rare words of a claim count more than common ones.
   * `ts_rank_cd`: Postgres's own cover-density rank over the OR'd stems, which has no IDF.
   */
  lexicalRanking?: LexicalRanking;
  /** BM25's length normalisation (0 = none, 1 = full); default 0.3. */
  bm25B?: number;
  /** BM25 candidates come from the rarest stems until about this many passages could match. */
  matchBudget?: number;
  /** The embedding model for the query; default: the corpus's own model (or EMBEDDING_MODEL). */
  embedder?: Embedder;
  /** A precomputed query vector from the same model (benchmarks embed all claims in batches). */
  queryVector?: number[];
  /** HNSW ef_search, benchmarks only; by default the dense query sizes it for recall (db/queries/retrieval.ts efSearchFor). */
  efSearch?: number;
  /** Benchmarks only: `exact` compares against a brute-force scan; `index` forces the HNSW index. */
  densePlan?: DensePlan;
  /** Compute matched terms and highlight offsets (one ts_headline per hit); default true. */
  highlight?: boolean;
};

export type SearchHit = {
  /** 1-based position in `hits`; debates cite it as [E<rank>]. */
  rank: number;
  passageId: number;
  /** The passage's id within its corpus (a dataset sentence id, or `<document id>#<ordinal>`). */
  passageExternalId: string;
  ordinal: number;
  text: string;
  /** Where the passage sits in its document's text, when the chunker recorded it. */
  charStart: number | null;
  charEnd: number | null;
  document: {
    id: number;
    externalId: string;
    title: string | null;
    url: string | null;
    /** ISO 8601, or null when unknown. */
    publishedAt: string | null;
  };
  corpus: { id: string; name: string };
  /** RRF score in hybrid mode, cosine similarity in dense mode, BM25 (or ts_rank_cd) in lexical mode. */
  score: number;
  dense: { rank: number; score: number } | null;
  lexical: { rank: number; score: number } | null;
  /** Distinct words of the passage that matched the query's stems, lower-cased, in text order. */
  matchedTerms: string[];
  /** [start, end) offsets of every matched word in `text` (UTF-16 code units, as JS strings index). */
  highlights: Array<{ start: number; end: number }>;
};

export type SearchResponse = {
  query: string;
  mode: SearchMode;
  k: number;
  /** The embedding model the dense side used, or null in lexical mode. */
  model: string | null;
  mmr: { lambda: number; pool: number } | null;
  /** The query's stems as the lexical side searched for them. */
  queryTerms: string[];
  /** The same words as the user typed them, for display ("Xyzzy", not the stem "xyzzi"). */
  queryWords: string[];
  candidates: { dense: number; lexical: number };
  hits: SearchHit[];
  timings: { embedMs: number; denseMs: number; lexicalMs: number; fuseMs: number; hydrateMs: number; totalMs: number };
};

export class SearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchError";
  }
}

const now = () => performance.now();

function toDate(v: Date | string | undefined): Date | undefined {
  if (v === undefined) return undefined;
  const d = v instanceof Date ? v : new Date(v);
  if (Number.isNaN(d.getTime())) throw new SearchError(`not a date: ${String(v)}`);
  return d;
}

/** Splits ts_headline output back into the original text and the offsets of its highlighted words. */
export function parseHeadline(
  headline: string,
  text: string,
): { terms: string[]; highlights: Array<{ start: number; end: number }> } {
  const highlights: Array<{ start: number; end: number }> = [];
  const terms: string[] = [];
  let plain = "";
  let open = -1;
  for (const ch of headline) {
    if (ch === HIGHLIGHT_START) open = plain.length;
    else if (ch === HIGHLIGHT_END) {
      if (open >= 0) {
        highlights.push({ start: open, end: plain.length });
        const term = plain.slice(open).toLowerCase();
        if (!terms.includes(term)) terms.push(term);
      }
      open = -1;
    } else plain += ch;
  }
  // Offsets are only meaningful if ts_headline gave the text back unchanged.
  return { terms, highlights: plain === text ? highlights : [] };
}

/**
 * The query is embedded with the model of the corpora searched, never simply EMBEDDING_MODEL: a
 * corpus embedded before the default changed has no vectors of the new default, and a dense
 * search with it would find nothing without saying why.
 */
async function resolveModel(
  db: Database,
  q: SearchQuery,
  given: Array<{ name: string; embeddingModel: string }> | null,
) {
  if (q.embedder) return q.embedder;
  const corpora = given ?? (await corporaWithPassages(db));
  const models = new Set(corpora.map((c) => c.embeddingModel));
  if (models.size > 1) {
    const target = getConfig().embeddingModel;
    const behind = corpora.filter((c) => c.embeddingModel !== target);
    throw new SearchError(
      `corpora ${corpora.map((c) => `${c.name} (${c.embeddingModel})`).join(", ")} use different embedding models; ` +
        `dense search compares vectors of one model only: search them separately, use --mode lexical, ` +
        `or re-embed ${behind.map((c) => c.name).join(", ")} with npx counterpoint corpus reembed --corpus <name> --model ${target}`,
    );
  }
  const id = [...models][0] ?? getConfig().embeddingModel;
  return resolveEmbedder(id);
}

export async function search(db: Database, q: SearchQuery): Promise<SearchResponse> {
  const t0 = now();
  const text = q.text.trim();
  if (!text) throw new SearchError("the query is empty");
  const mode = q.mode ?? "hybrid";
  if (!SEARCH_MODES.includes(mode)) throw new SearchError(`unknown mode ${mode}; use ${SEARCH_MODES.join(", ")}`);
  const k = q.k ?? DEFAULT_K;
  if (!Number.isInteger(k) || k < 1 || k > 1000)
    throw new SearchError(`k must be a whole number from 1 to 1000, got ${k}`);
  const before = toDate(q.before);

  let corpora: Awaited<ReturnType<typeof findCorpora>> | null = null;
  if (q.corpus !== undefined) {
    const refs = [q.corpus].flat();
    corpora = await findCorpora(db, refs);
    const missing = refs.filter((r) => !corpora!.some((c) => c.name === r || c.id === r));
    if (missing.length) throw new SearchError(`no corpus named ${missing.map((m) => `"${m}"`).join(", ")}`);
  }
  const filter = { corpusIds: corpora?.map((c) => c.id), documentIds: q.documentIds, before };

  const mmrOpt = q.mmr ? (q.mmr === true ? {} : q.mmr) : null;
  const mmr = mmrOpt
    ? { lambda: mmrOpt.lambda ?? DEFAULT_MMR_LAMBDA, pool: Math.max(k, mmrOpt.pool ?? Math.max(3 * k, 50)) }
    : null;
  // Fusion needs depth beyond k; a single retriever needs only what is shown (or what MMR re-ranks).
  const depth = Math.max(mode === "hybrid" ? (q.candidates ?? DEFAULT_CANDIDATES) : k, mmr?.pool ?? 0);

  let embedMs = 0;
  let model: string | null = null;
  let vector: number[] | undefined;
  let dim: number | undefined;
  if (mode !== "lexical") {
    const embedder = await resolveModel(db, q, corpora);
    model = embedder.id;
    const te = now();
    vector = q.queryVector ?? (await embedder.embed([text]))[0];
    embedMs = now() - te;
    if (!vector) throw new SearchError(`${embedder.id} returned no vector for the query`);
    dim = embedder.dim ?? (await storedDimension(db, embedder.id)) ?? vector.length;
  }

  let denseMs = 0;
  let lexicalMs = 0;
  const timed = async <T>(fn: () => Promise<T>, set: (ms: number) => void) => {
    const ts = now();
    try {
      return await fn();
    } finally {
      set(now() - ts);
    }
  };
  const termsP = queryLexemes(db, text);
  const runLexical = async (): Promise<Candidate[]> => {
    if ((q.lexicalRanking ?? "bm25") === "ts_rank_cd") return lexicalCandidates(db, { ...filter, text, limit: depth });
    const [lexemes, stats] = await Promise.all([termsP, getLexemeStats(db, filter.corpusIds)]);
    return bm25Candidates(db, {
      ...filter,
      terms: lexemes.map((lexeme) => ({ lexeme, idf: idf(stats, lexeme) })),
      match: matchLexemes(stats, lexemes, q.matchBudget ?? DEFAULT_MATCH_BUDGET),
      avgLength: stats.avgLength,
      b: q.bm25B ?? DEFAULT_BM25_B,
      limit: depth,
    });
  };
  const typedP = queryWordStems(db, text);
  const [dense, lexical, terms, typed] = await Promise.all([
    mode === "lexical"
      ? ([] as Candidate[])
      : timed(
          () =>
            denseCandidates(db, {
              ...filter,
              model: model!,
              dim: dim!,
              vector: vector!,
              limit: depth,
              efSearch: q.efSearch,
              plan: q.densePlan,
            }),
          (ms) => (denseMs = ms),
        ),
    mode === "dense" ? ([] as Candidate[]) : timed(runLexical, (ms) => (lexicalMs = ms)),
    termsP,
    typedP,
  ]);

  const tf = now();
  const denseBy = new Map(dense.map((c, i) => [c.passageId, { rank: i + 1, score: c.score }]));
  const lexBy = new Map(lexical.map((c, i) => [c.passageId, { rank: i + 1, score: c.score }]));
  let ranked: Array<{ id: number; score: number }>;
  if (mode === "hybrid") {
    ranked = reciprocalRankFusion([dense.map((c) => c.passageId), lexical.map((c) => c.passageId)], {
      k: q.rrfK ?? RRF_K,
      weights: [q.weights?.dense ?? 1, q.weights?.lexical ?? 1],
    }).map((f) => ({ id: f.id, score: f.score }));
  } else {
    ranked = (mode === "dense" ? dense : lexical).map((c) => ({ id: c.passageId, score: c.score }));
  }
  let fuseMs = now() - tf;

  if (mmr && ranked.length > 1) {
    const pool = ranked.slice(0, mmr.pool);
    const vectors = model
      ? await passageVectors(
          db,
          model,
          pool.map((p) => p.id),
        )
      : new Map<number, number[]>();
    const tm = now();
    const relevance = normalizeScores(pool.map((p) => p.score));
    const order = maximalMarginalRelevance(
      pool.map((p, i) => ({ id: p.id, relevance: relevance[i]!, vector: vectors.get(p.id) })),
      k,
      mmr.lambda,
    );
    const byId = new Map(pool.map((p) => [p.id, p]));
    ranked = order.map((id) => byId.get(id)!);
    fuseMs += now() - tm;
  }
  ranked = ranked.slice(0, k);

  const th = now();
  const rows = await passagesByIds(
    db,
    ranked.map((r) => r.id),
    q.highlight === false ? undefined : text,
  );
  const hits: SearchHit[] = [];
  for (const r of ranked) {
    const row = rows.get(r.id);
    // Deleted between the candidate query and hydration (a concurrent re-ingest): skip, never invent.
    if (!row) continue;
    const hl = row.headline ? parseHeadline(row.headline, row.text) : { terms: [], highlights: [] };
    hits.push({
      rank: hits.length + 1,
      passageId: row.passageId,
      passageExternalId: row.passageExternalId,
      ordinal: row.ordinal,
      text: row.text,
      charStart: row.charStart,
      charEnd: row.charEnd,
      document: {
        id: row.documentId,
        externalId: row.documentExternalId,
        title: row.documentTitle,
        url: row.documentUrl,
        publishedAt: (row.publishedAt ?? row.documentPublishedAt)?.toISOString() ?? null,
      },
      corpus: { id: row.corpusId, name: row.corpusName },
      score: r.score,
      dense: denseBy.get(r.id) ?? null,
      lexical: lexBy.get(r.id) ?? null,
      matchedTerms: hl.terms,
      highlights: hl.highlights,
    });
  }
  const hydrateMs = now() - th;

  return {
    query: text,
    mode,
    k,
    model,
    mmr,
    queryTerms: terms,
    queryWords: wordsForStems(terms, typed),
    candidates: { dense: dense.length, lexical: lexical.length },
    hits,
    timings: { embedMs, denseMs, lexicalMs, fuseMs, hydrateMs, totalMs: now() - t0 },
  };
}
