import fs from "node:fs/promises";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { claimIndexSize } from "@/db/queries/claim-index";
import type { Embedder } from "@/lib/embeddings/registry";
import { importFactChecks, type ImportProgress } from "@/lib/matching/import/run";
import { rescoredCandidates } from "@/lib/matching/match";
import { claimCandidates, MATCH_CANDIDATES } from "@/lib/matching/retrieve";
import { type Candidate, denseCandidates } from "@/db/queries/retrieval";
import { indexEmbedder } from "@/lib/matching/store";
import { cleanClaimText } from "@/lib/matching/text";
import { padMatchIndex } from "./match-scale";
import { type IndexRecall, indexRecall, mean, percentile, recallAtK } from "./metrics";

/**
 * `bench match`: claim matching on the benchmark format of CLEF CheckThat! Task 2A (queries are
 * posts, candidates are fact-checks, qrels pair them). Candidates are loaded through
 * `factchecks import` (a second run finds them stored), each query goes through the matcher's
 * retrieval, and four rankings are scored: lexical (BM25), dense, hybrid (RRF) and re-scored.
 */

export const MATCH_BENCH_RANKERS = ["lexical", "dense", "hybrid", "rescored"] as const;
type Ranker = (typeof MATCH_BENCH_RANKERS)[number];

/**
 * Average precision over the top k: the mean of the precision at each rank (<= k) holding a
 * relevant candidate, divided by the number of relevant candidates (at most k). CheckThat!'s MAP@k.
 */
export function averagePrecisionAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let hits = 0;
  let sum = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) {
      hits++;
      sum += hits / (i + 1);
    }
  });
  const denom = Math.min(relevant.size, k);
  return denom ? sum / denom : 0;
}

export type MatchBenchRow = {
  ranker: Ranker;
  queries: number;
  map_at_1: number;
  map_at_5: number;
  recall_at_5: number;
  recall_at_20: number;
  p50_ms: number;
  p95_ms: number;
};

export type MatchBenchReport = {
  queries_file: string;
  candidates_file: string;
  qrels_file: string;
  backend: string;
  model: string;
  stored_checks: number;
  import: { imported: number; duplicates: number; invalid: number; seconds: number };
  /** Synthetic checks added for --scale in this run (0 when already there), and how long that took. */
  scale: { synthetic_added: number; seconds: number } | null;
  /** Queries whose relevant candidates are not in the pool (left out of the scores). */
  skipped_queries: number;
  query_embedding_ms_per_query: number;
  /**
   * The HNSW index's dense list against a brute-force scan of the same vectors, at the depth the
   * matcher asks for: the share of exact neighbours it returned, and the queries that missed one.
   */
  index_recall: IndexRecall;
  rows: MatchBenchRow[];
  notes: string[];
};

const queryLine = z.object({ id: z.union([z.string(), z.number()]).transform(String), text: z.string().min(1) });

async function readQueries(file: string) {
  const lines = (await fs.readFile(file, "utf8")).split(/\r?\n/);
  const out: Array<{ id: string; text: string }> = [];
  lines.forEach((l, i) => {
    if (!l.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(l);
    } catch {
      throw new Error(`${file} line ${i + 1}: not valid JSON`);
    }
    const r = queryLine.safeParse(json);
    if (!r.success) throw new Error(`${file} line ${i + 1}: expected {"id", "text"}`);
    out.push(r.data);
  });
  return out;
}

/** `query_id<TAB>candidate_id` (a header line is skipped), or TREC's `qid 0 docid rel`. */
async function readQrels(file: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const [i, line] of (await fs.readFile(file, "utf8")).split(/\r?\n/).entries()) {
    if (!line.trim()) continue;
    const cols = line.trim().split(/\t|\s+/);
    let q: string | undefined;
    let c: string | undefined;
    if (cols.length === 2) [q, c] = cols;
    else if (cols.length === 4) {
      if (cols[3] === "0") continue;
      [q, , c] = cols;
    } else throw new Error(`${file} line ${i + 1}: expected query_id<TAB>candidate_id`);
    if (i === 0 && /query|qid/i.test(q!)) continue;
    if (!out.has(q!)) out.set(q!, new Set());
    out.get(q!)!.add(c!);
  }
  return out;
}

export async function runMatchBench(
  deps: { db: Database; embedder?: Embedder; backend: string },
  p: {
    queries: string;
    candidates: string;
    qrels: string;
    limit?: number;
    /** Pad the index with synthetic checks to this many stored checks first (latency at scale). */
    scale?: number;
    /** Writes every query's candidates with their features and relevance (JSON Lines), for fitting the re-scorer. */
    dumpFeatures?: string;
    onProgress?: (line: string) => void;
    onImportProgress?: (p: ImportProgress) => void;
  },
): Promise<MatchBenchReport> {
  const { db } = deps;
  const embedder = indexEmbedder(deps);
  const t0 = performance.now();
  const imp = await importFactChecks({ db, embedder }, p.candidates, { onProgress: p.onImportProgress });
  const importSeconds = (performance.now() - t0) / 1000;
  p.onProgress?.(
    `candidates: ${imp.imported} imported, ${imp.duplicates} already stored, ${imp.invalid.length} malformed, in ${importSeconds.toFixed(1)} s`,
  );

  const scaled = p.scale ? await padMatchIndex(db, embedder.id, p.scale, p.onProgress) : null;

  // Candidate ids of the file -> index row ids, through the imported rows' source ids (the feed's own ids).
  const map = await db.execute<{ ci: string | number; sid: string }>(sql`
    select ci.id as ci, f.source_id as sid from imported_fact_checks f
    join claim_index ci on ci.source = 'imported' and ci.source_ref = f.id::text
    where f.source_id is not null`);
  const toExternal = new Map(map.rows.map((r) => [Number(r.ci), r.sid]));
  const known = new Set(toExternal.values());

  const qrels = await readQrels(p.qrels);
  let queries = (await readQueries(p.queries)).filter((q) => qrels.has(q.id));
  const before = queries.length;
  queries = queries.filter((q) => [...qrels.get(q.id)!].some((c) => known.has(c)));
  const skipped = before - queries.length;
  if (p.limit) queries = queries.slice(0, p.limit);
  if (queries.length === 0)
    throw new Error("no query has a relevant candidate in the pool: check the three files belong together");

  const cleaned = queries.map((q) => cleanClaimText(q.text));
  const te = performance.now();
  const vectors: number[][] = [];
  for (let i = 0; i < cleaned.length; i += embedder.batchSize)
    vectors.push(...(await embedder.embed(cleaned.slice(i, i + embedder.batchSize))));
  const embedMs = (performance.now() - te) / queries.length;

  const ranked: Record<Ranker, string[][]> = { lexical: [], dense: [], hybrid: [], rescored: [] };
  const ms: Record<Ranker, number[]> = { lexical: [], dense: [], hybrid: [], rescored: [] };
  const denseLists: Candidate[][] = [];
  const exactLists: Candidate[][] = [];
  const exactMs: number[] = [];
  const dump = p.dumpFeatures ? await fs.open(p.dumpFeatures, "w") : null;
  const ext = (id: number) => toExternal.get(id) ?? `index:${id}`;
  // One check imported twice (two feeds naming the same id) counts once, at its best rank.
  const unique = (ids: string[]) => [...new Set(ids)];
  // Warm-up: the first query pays for statistics and plan caches.
  await rescoredCandidates(db, { text: cleaned[0]!, vector: vectors[0]!, model: embedder.id });
  for (const [i, q] of queries.entries()) {
    const text = cleaned[i]!;
    const vector = vectors[i]!;
    const th = performance.now();
    const c = await claimCandidates(db, { text, vector: { model: embedder.id, values: vector } });
    ms.hybrid.push(performance.now() - th);
    ms.dense.push(c.timings.denseMs);
    ms.lexical.push(c.timings.lexicalMs);
    const tx = performance.now();
    const exact = await denseCandidates(db, {
      table: "claim_index",
      model: embedder.id,
      dim: vector.length,
      vector,
      limit: MATCH_CANDIDATES,
      plan: "exact",
    });
    exactMs.push(performance.now() - tx);
    denseLists.push(c.dense);
    exactLists.push(exact);
    ranked.lexical.push(unique(c.lexical.map((x) => ext(x.passageId))));
    ranked.dense.push(unique(c.dense.map((x) => ext(x.passageId))));
    ranked.hybrid.push(unique(c.hybrid.map((x) => ext(x.id))));
    const tr = performance.now();
    const r = await rescoredCandidates(db, { text, vector, model: embedder.id });
    ms.rescored.push(performance.now() - tr);
    ranked.rescored.push(unique(r.map((x) => ext(x.id))));
    if (dump) {
      const rel = qrels.get(q.id)!;
      for (const x of r)
        await dump.write(
          `${JSON.stringify({ query: q.id, candidate: ext(x.id), relevant: rel.has(ext(x.id)) ? 1 : 0, ...x.features, dense: x.dense, lexical: x.lexical })}\n`,
        );
    }
    if ((i + 1) % 50 === 0) p.onProgress?.(`${i + 1} of ${queries.length} queries`);
  }
  await dump?.close();

  const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
  const rows = MATCH_BENCH_RANKERS.map((ranker): MatchBenchRow => {
    const lists = ranked[ranker];
    const rel = queries.map((q) => qrels.get(q.id)!);
    return {
      ranker,
      queries: queries.length,
      map_at_1: round(mean(lists.map((l, i) => averagePrecisionAtK(l, rel[i]!, 1)))),
      map_at_5: round(mean(lists.map((l, i) => averagePrecisionAtK(l, rel[i]!, 5)))),
      recall_at_5: round(mean(lists.map((l, i) => recallAtK(l, rel[i]!, 5)))),
      recall_at_20: round(mean(lists.map((l, i) => recallAtK(l, rel[i]!, 20)))),
      p50_ms: round(percentile(ms[ranker], 50), 1),
      p95_ms: round(percentile(ms[ranker], 95), 1),
    };
  });
  const stored = await claimIndexSize(db);
  const notes = [
    "Latency per query with its vector computed beforehand (query embedding is listed separately); hybrid = both retrievers and fusion; rescored = hybrid plus hydration and re-scoring.",
  ];
  if (stored > map.rows.length)
    notes.push(
      `The index holds ${stored - map.rows.length} checks besides this pool (debates, other feeds${p.scale ? ", synthetic checks for --scale" : ""}): they compete with the pool, as they would in use.`,
    );
  return {
    queries_file: p.queries,
    candidates_file: p.candidates,
    qrels_file: p.qrels,
    backend: deps.backend,
    model: embedder.id,
    stored_checks: stored,
    import: {
      imported: imp.imported,
      duplicates: imp.duplicates,
      invalid: imp.invalid.length,
      seconds: round(importSeconds, 1),
    },
    scale: scaled ? { synthetic_added: scaled.added, seconds: round(scaled.seconds, 1) } : null,
    skipped_queries: skipped,
    query_embedding_ms_per_query: round(embedMs, 1),
    index_recall: indexRecall(denseLists, exactLists, MATCH_CANDIDATES, exactMs),
    rows,
    notes,
  };
}

export function matchBenchMarkdown(r: MatchBenchReport): string {
  const lines = [
    "| ranker | queries | MAP@1 | MAP@5 | R@5 | R@20 | p50 ms | p95 ms |",
    "|---|---|---|---|---|---|---|---|",
    ...r.rows.map(
      (x) =>
        `| ${x.ranker} | ${x.queries} | ${x.map_at_1.toFixed(3)} | ${x.map_at_5.toFixed(3)} | ${x.recall_at_5.toFixed(3)} | ${x.recall_at_20.toFixed(3)} | ${x.p50_ms} | ${x.p95_ms} |`,
    ),
    "",
    `HNSW index recall@${r.index_recall.k} against exact search: ${r.index_recall.recall} (${r.index_recall.queries_missing_one} of ${r.index_recall.queries} queries missed a true neighbour; exact scan p95 ${r.index_recall.exact_p95_ms} ms)`,
  ];
  return lines.join("\n");
}
