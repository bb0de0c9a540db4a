import { sql, type SQL } from "drizzle-orm";
import { MAX_ROWS_PER_STATEMENT } from "@/db/bulk";
import type { Database } from "@/db/client";
import { denseExpression } from "./vector-index";

/**
 * The SQL behind search: dense candidates from a model's partial HNSW index, lexical candidates
 * from the GIN index on passages.tsv, and the hydration of the final hits. Fusion, MMR and the
 * result shape live in lib/retrieval/search.ts.
 */

export type PassageFilter = {
  corpusIds?: string[];
  documentIds?: number[];
  /** Passages published after this instant are excluded; undated passages are kept (nothing says they are later). */
  before?: Date;
};

export type Candidate = { passageId: number; score: number };

/**
 * The rows a search runs over: corpus passages, or the claim-matching index (lib/matching), which
 * has the same `id` and `tsv` columns and its own vectors table, so one BM25 and one dense query serve both.
 * `passageId` in results is then the row id of that table.
 */
export type SearchTable = "passages" | "claim_index";
const TABLES = {
  passages: { rows: "passages", vectors: "passage_embeddings", key: "passage_id" },
  claim_index: { rows: "claim_index", vectors: "claim_index_embeddings", key: "claim_id" },
} as const;

/**
 * How the dense query is planned: `auto` lets the planner choose (the HNSW index at any real size),
 * `index` forbids sequential scans so even a tiny table goes through the index (tests of the
 * iterative scan), `exact` forbids index scans: a brute-force cosine scan, the benchmark's baseline.
 */
export type DensePlan = "auto" | "index" | "exact";

export type DenseParams = PassageFilter & {
  model: string;
  dim: number;
  vector: number[];
  limit: number;
  /** HNSW candidate list size (raised to `limit`); benchmarks and tests only: by default `efSearchFor` sizes it for recall. */
  efSearch?: number;
  plan?: DensePlan;
  /** Default relaxed_order; `off` exists to show (in tests) what the iterative scan prevents. */
  iterativeScan?: "relaxed_order" | "strict_order" | "off";
  /** Default `passages`. */
  table?: SearchTable;
};

type Executor = Pick<Database, "execute">;

function literal(s: string) {
  return sql.raw(`'${s.replace(/'/g, "''")}'`);
}

function vectorLiteral(v: number[], dim: number) {
  if (v.length !== dim) throw new Error(`query vector has ${v.length} dimensions, the model's index has ${dim}`);
  for (const x of v) if (!Number.isFinite(x)) throw new Error("query vector contains a non-finite number");
  return sql`${`[${v.join(",")}]`}::vector(${sql.raw(String(dim))})`;
}

/**
 * An `in (...)` list of parameters. Its callers pass a search's filter (the corpora and documents
 * a user picked) or a candidate pool (top-k ids); the statement bound (db/bulk.ts) caps both, so a
 * filter listing thousands of documents is refused with a message instead of aborting PGlite.
 */
function inList<T>(values: T[]) {
  if (values.length > MAX_ROWS_PER_STATEMENT)
    throw new Error(
      `a search may name at most ${MAX_ROWS_PER_STATEMENT} corpora, documents or candidates at once (got ${values.length}); narrow the filter`,
    );
  return sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
}

/** Filters on `passages p`: corpus and publication date are denormalised there, so no join to documents. */
function filterClauses(f: PassageFilter): SQL[] {
  const out: SQL[] = [];
  if (f.corpusIds) out.push(f.corpusIds.length ? sql`p.corpus_id in (${inList(f.corpusIds)})` : sql`false`);
  if (f.documentIds) out.push(f.documentIds.length ? sql`p.document_id in (${inList(f.documentIds)})` : sql`false`);
  if (f.before) out.push(sql`(p.published_at is null or p.published_at <= ${f.before.toISOString()}::timestamptz)`);
  return out;
}

function where(clauses: SQL[]) {
  return clauses.length ? sql`where ${sql.join(clauses, sql` and `)}` : sql``;
}

function denseQuery(p: DenseParams) {
  const t = TABLES[p.table ?? "passages"];
  const expr = denseExpression(p.dim);
  const q = vectorLiteral(p.vector, p.dim);
  // The model is inlined as a literal: the planner proves the partial index's predicate only
  // against a constant, and a generic plan over a parameter would fall back to a full scan.
  const clauses = [sql`pe.model = ${literal(p.model)}`, ...filterClauses(p)];
  // relaxed_order may return neighbours slightly out of order; the materialised CTE lets the
  // index scan run (and keep scanning past filtered-out rows), then the outer query re-sorts exactly.
  return sql`
    with nn as materialized (
      select pe.${sql.raw(t.key)} as passage_id, ${expr} <=> ${q} as distance
      from ${sql.raw(t.vectors)} pe
      join ${sql.raw(t.rows)} p on p.id = pe.${sql.raw(t.key)}
      ${where(clauses)}
      order by ${expr} <=> ${q}
      limit ${sql.raw(String(Math.trunc(p.limit)))}
    )
    select passage_id, distance from nn order by distance, passage_id`;
}

/**
 * The HNSW candidate list per query. pgvector's default (40) lost true neighbours on clustered
 * vectors of a few thousand rows: on tests/integration/vector-recall.test.ts (4,000 vectors of 128
 * dimensions, 40 clusters) the top 50 had recall 0.78 against exact search with ef_search = 50,
 * 0.94 with 100 and 1.00 with 200. A filter (corpus, document, date) discards candidates after the
 * graph walk, so the list must be longer by about the inverse of the filter's selectivity: a
 * corpus of a third of the rows had recall 0.88 at ef_search 80 and 0.99 at 160, 1.00 at 400.
 * pgvector rejects values above 1000; the iterative scan goes on past it when it must.
 */
export const EF_SEARCH_PER_RESULT = 4;
export const EF_SEARCH_PER_FILTERED_RESULT = 20;
export const EF_SEARCH_MIN = 100;

export function efSearchFor(p: Pick<DenseParams, "efSearch" | "limit" | "corpusIds" | "documentIds" | "before">) {
  const filtered = !!(p.corpusIds || p.documentIds || p.before);
  const limit = Math.trunc(p.limit);
  const ef =
    p.efSearch !== undefined
      ? Math.max(Math.trunc(p.efSearch), limit)
      : Math.max(EF_SEARCH_MIN, limit * (filtered ? EF_SEARCH_PER_FILTERED_RESULT : EF_SEARCH_PER_RESULT));
  return Math.min(1000, ef);
}

async function planSettings(tx: Executor, p: DenseParams) {
  await tx.execute(sql.raw(`set local hnsw.ef_search = ${efSearchFor(p)}`));
  // relaxed_order: when filters drop most neighbours, the scan continues instead of returning fewer than `limit` rows.
  const mode = p.iterativeScan ?? "relaxed_order";
  if (!["relaxed_order", "strict_order", "off"].includes(mode)) throw new Error(`unknown iterative scan mode ${mode}`);
  await tx.execute(sql.raw(`set local hnsw.iterative_scan = ${mode}`));
  if (p.plan === "exact") await tx.execute(sql.raw(`set local enable_indexscan = off`));
  if (p.plan === "index") {
    await tx.execute(sql.raw(`set local enable_seqscan = off`));
    await tx.execute(sql.raw(`set local enable_bitmapscan = off`));
  }
}

/** Nearest passages by cosine distance among vectors of `model`; score = cosine similarity. */
export async function denseCandidates(db: Database, p: DenseParams): Promise<Candidate[]> {
  if (p.limit < 1) return [];
  return db.transaction(async (tx) => {
    await planSettings(tx, p);
    const res = await tx.execute<{ passage_id: string | number; distance: number | string }>(denseQuery(p));
    return res.rows.map((r) => ({ passageId: Number(r.passage_id), score: 1 - Number(r.distance) }));
  });
}

/** The plan the dense query gets, for tests and `doctor`-style checks that the HNSW index is used. */
export async function explainDense(db: Database, p: DenseParams): Promise<string> {
  return db.transaction(async (tx) => {
    await planSettings(tx, p);
    const res = await tx.execute<Record<string, string>>(sql`explain ${denseQuery(p)}`);
    return res.rows.map((r) => Object.values(r)[0]).join("\n");
  });
}

/**
 * The claim's lexemes OR'd together. An AND of every word of a long claim (what
 * websearch_to_tsquery builds) matches almost nothing; OR matches any passage sharing a stem, and
 * ts_rank_cd then prefers passages covering more of them. Lexemes are quoted so that characters
 * meaningful in tsquery syntax are taken literally; a query of stop words only yields NULL, which matches nothing.
 */
function orQuery(text: string) {
  return sql`(
    select string_agg(chr(39) || replace(replace(l, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39), ' | ')
    from unnest(tsvector_to_array(to_tsvector('english', ${text}))) l
  )::tsquery`;
}

export type LexicalParams = PassageFilter & {
  text: string;
  limit: number;
  /** ts_rank_cd normalisation bit mask (Postgres docs, 12.3.3); 0 ignores passage length. */
  normalization?: number;
};

/** Passages sharing at least one stem with the query, best ts_rank_cd first. */
export async function lexicalCandidates(db: Database, p: LexicalParams): Promise<Candidate[]> {
  if (p.limit < 1) return [];
  const norm = sql.raw(String(Math.trunc(p.normalization ?? 0)));
  const res = await db.execute<{ passage_id: string | number; score: number | string }>(sql`
    with q as (select ${orQuery(p.text)} as tsq)
    select p.id as passage_id, ts_rank_cd(p.tsv, q.tsq, ${norm}) as score
    from passages p, q
    ${where([sql`p.tsv @@ q.tsq`, ...filterClauses(p)])}
    order by score desc, p.id
    limit ${sql.raw(String(Math.trunc(p.limit)))}`);
  return res.rows.map((r) => ({ passageId: Number(r.passage_id), score: Number(r.score) }));
}

/** The query's lexemes as Postgres stems them (english), for showing what the lexical side looked for. */
export async function queryLexemes(db: Database, text: string): Promise<string[]> {
  const res = await db.execute<{ l: string }>(
    sql`select unnest(tsvector_to_array(to_tsvector('english', ${text}))) as l`,
  );
  return res.rows.map((r) => r.l);
}

/** Each query word as the user typed it, with the stems the lexical side searches for it. */
export async function queryWordStems(db: Database, text: string): Promise<Array<{ word: string; lexemes: string[] }>> {
  const res = await db.execute<{ token: string; lexemes: string[] }>(
    sql`select token, lexemes from ts_debug('english', ${text}) where lexemes is not null and cardinality(lexemes) > 0`,
  );
  return res.rows.map((r) => ({ word: r.token, lexemes: r.lexemes }));
}

export type PassageRow = {
  passageId: number;
  passageExternalId: string;
  ordinal: number;
  text: string;
  charStart: number | null;
  charEnd: number | null;
  publishedAt: Date | null;
  documentId: number;
  documentExternalId: string;
  documentTitle: string | null;
  documentUrl: string | null;
  documentPublishedAt: Date | null;
  corpusId: string;
  corpusName: string;
  /** The passage text with every query match wrapped in HIGHLIGHT_START / HIGHLIGHT_END, when a query was given. */
  headline: string | null;
};

/** Control characters never occur in ingested prose, so they cannot be confused with the text. */
export const HIGHLIGHT_START = "\u0001";
export const HIGHLIGHT_END = "\u0002";

function toDate(v: unknown): Date | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v : new Date(String(v));
}

/** The hits' passage, document and corpus fields, plus the highlighted text for the query. */
export async function passagesByIds(
  db: Database,
  ids: number[],
  highlightQuery?: string,
): Promise<Map<number, PassageRow>> {
  const out = new Map<number, PassageRow>();
  if (ids.length === 0) return out;
  const headline = highlightQuery
    ? sql`ts_headline('english', p.text, ${orQuery(highlightQuery)}, ${`StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, HighlightAll=true`})`
    : sql`null::text`;
  const res = await db.execute<Record<string, unknown>>(sql`
    select p.id, p.external_id, p.ordinal, p.text, p.char_start, p.char_end, p.published_at,
           d.id as document_id, d.external_id as document_external_id, d.title, d.url,
           d.published_at as document_published_at, c.id as corpus_id, c.name as corpus_name,
           ${headline} as headline
    from passages p
    join documents d on d.id = p.document_id
    join corpora c on c.id = p.corpus_id
    where p.id in (${inList(ids)})`);
  for (const r of res.rows) {
    const id = Number(r.id);
    out.set(id, {
      passageId: id,
      passageExternalId: String(r.external_id),
      ordinal: Number(r.ordinal),
      text: String(r.text),
      charStart: r.char_start === null ? null : Number(r.char_start),
      charEnd: r.char_end === null ? null : Number(r.char_end),
      publishedAt: toDate(r.published_at),
      documentId: Number(r.document_id),
      documentExternalId: String(r.document_external_id),
      documentTitle: (r.title as string | null) ?? null,
      documentUrl: (r.url as string | null) ?? null,
      documentPublishedAt: toDate(r.document_published_at),
      corpusId: String(r.corpus_id),
      corpusName: String(r.corpus_name),
      headline: (r.headline as string | null) ?? null,
    });
  }
  return out;
}

/** Stored vectors of one model for the given passages (MMR compares candidates with each other). */
export async function passageVectors(db: Database, model: string, ids: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (ids.length === 0) return out;
  const res = await db.execute<{ passage_id: string | number; v: string }>(sql`
    select passage_id, embedding::text as v from passage_embeddings
    where model = ${model} and passage_id in (${inList(ids)})`);
  for (const r of res.rows) out.set(Number(r.passage_id), JSON.parse(r.v) as number[]);
  return out;
}

export type CorpusRef = { id: string; name: string; embeddingModel: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Corpora by name or id, in the order asked; names that match nothing are reported by the caller. */
export async function findCorpora(db: Database, refs: string[]): Promise<CorpusRef[]> {
  if (refs.length === 0) return [];
  const ids = refs.filter((r) => UUID.test(r));
  const byId = ids.length ? sql`or id in (${inList(ids)})` : sql``;
  const res = await db.execute<{ id: string; name: string; embedding_model: string }>(sql`
    select id, name, embedding_model from corpora where name in (${inList(refs)}) ${byId}`);
  return res.rows.map((r) => ({ id: String(r.id), name: r.name, embeddingModel: r.embedding_model }));
}

/** Corpora that have passages: a search of "all corpora" must embed its query with their model. */
export async function corporaWithPassages(db: Database): Promise<CorpusRef[]> {
  const res = await db.execute<{ id: string; name: string; embedding_model: string }>(sql`
    select id, name, embedding_model from corpora c where exists (select 1 from passages p where p.corpus_id = c.id) order by name`);
  return res.rows.map((r) => ({ id: String(r.id), name: r.name, embeddingModel: r.embedding_model }));
}

/** The dimension stored for a model, when its dimension is not known up front (OpenAI-compatible servers). */
export async function storedDimension(db: Database, model: string): Promise<number | null> {
  const res = await db.execute<{ dim: number }>(sql`select dim from passage_embeddings where model = ${model} limit 1`);
  return res.rows[0] ? Number(res.rows[0].dim) : null;
}

/** Every passage external id of a corpus: a benchmark scores only gold ids the corpus can return. */
export async function corpusPassageExternalIds(db: Database, corpusId: string): Promise<Set<string>> {
  const res = await db.execute<{ external_id: string }>(
    sql`select external_id from passages where corpus_id = ${corpusId}`,
  );
  return new Set(res.rows.map((r) => r.external_id));
}

export async function corpusPassageCount(db: Database, corpusId: string): Promise<number> {
  const res = await db.execute<{ n: number | string }>(
    sql`select count(*) as n from passages where corpus_id = ${corpusId}`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * Refreshes planner statistics after a bulk load. PGlite has no autovacuum daemon, and on
 * PostgreSQL it may not have run yet: with stale counts the planner can misjudge the filters.
 */
export async function analyzeRetrievalTables(db: Database): Promise<void> {
  await db.execute(sql`analyze passages`);
  await db.execute(sql`analyze passage_embeddings`);
  await db.execute(sql`analyze documents`);
}

export type LexemeStats = {
  /** Passages counted. */
  n: number;
  /** Mean number of distinct lexemes per passage (BM25's average length). */
  avgLength: number;
  /** Passages containing each lexeme. */
  df: Map<string, number>;
};

/**
 * Document frequency of every lexeme over the given corpora (all when omitted). One pass over the
 * tsvectors (ts_stat), so callers cache it: full-text search in Postgres has no IDF of its own.
 */
export async function lexemeStats(
  db: Database,
  corpusIds?: string[],
  table: SearchTable = "passages",
): Promise<LexemeStats> {
  for (const id of corpusIds ?? []) if (!UUID.test(id)) throw new Error(`not a corpus id: ${id}`);
  const rows = TABLES[table].rows;
  // ts_stat takes its query as text, so the (validated) ids are inlined.
  const inner = corpusIds
    ? `select tsv from ${rows} where corpus_id in (${corpusIds.map((id) => `'${id}'`).join(", ") || "null"})`
    : `select tsv from ${rows}`;
  const [stat, count] = await Promise.all([
    db.execute<{ word: string; ndoc: number | string }>(sql`select word, ndoc from ts_stat(${inner})`),
    db.execute<{ n: number | string; len: number | string | null }>(
      sql.raw(`select count(*) as n, avg(length(tsv)) as len from (${inner}) s`),
    ),
  ]);
  const df = new Map<string, number>();
  for (const r of stat.rows) df.set(r.word, Number(r.ndoc));
  return { n: Number(count.rows[0]?.n ?? 0), avgLength: Number(count.rows[0]?.len ?? 0) || 1, df };
}

export type Bm25Params = PassageFilter & {
  /** Every query lexeme with its IDF weight; all of them count in the score. */
  terms: Array<{ lexeme: string; idf: number }>;
  /** The lexemes a passage must contain at least one of to be a candidate (the rarer ones). */
  match: string[];
  avgLength: number;
  limit: number;
  k1?: number;
  b?: number;
  /** Default `passages`. */
  table?: SearchTable;
};

function tsqueryLexeme(l: string) {
  return `'${l.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/**
 * BM25 over tsvectors with binary term frequency: passages are sentences or short chunks, where a
 * stem rarely repeats, and testing each query stem with `@@` (a binary search in the tsvector) is
 * several times faster than unnesting every candidate's tsvector to count positions. Length is the
 * number of distinct lexemes. Candidates come from the GIN index through an OR of `match`.
 */
export async function bm25Candidates(db: Database, p: Bm25Params): Promise<Candidate[]> {
  if (p.limit < 1 || p.match.length === 0 || p.terms.length === 0) return [];
  const k1 = p.k1 ?? 1.2;
  const b = p.b ?? 0.75;
  const matchQuery = p.match.map(tsqueryLexeme).join(" | ");
  const weighted = sql.join(
    p.terms.map((t) => sql`(case when p.tsv @@ ${tsqueryLexeme(t.lexeme)}::tsquery then ${t.idf}::float8 else 0 end)`),
    sql` + `,
  );
  const res = await db.execute<{ passage_id: string | number; score: number | string }>(sql`
    select p.id as passage_id,
           (${weighted}) * (${k1}::float8 + 1) / (1 + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * length(p.tsv) / ${p.avgLength}::float8)) as score
    from ${sql.raw(TABLES[p.table ?? "passages"].rows)} p
    ${where([sql`p.tsv @@ ${matchQuery}::tsquery`, ...filterClauses(p)])}
    order by score desc, p.id
    limit ${sql.raw(String(Math.trunc(p.limit)))}`);
  return res.rows.map((r) => ({ passageId: Number(r.passage_id), score: Number(r.score) }));
}
