import fs from "node:fs";
import type { Database } from "@/db/client";
import { corpusPassageCount, corpusPassageExternalIds, findCorpora } from "@/db/queries/retrieval";
import { ingestRecords } from "@/lib/corpus/ingest";
import type { SourceRecord } from "@/lib/corpus/types";
import type { ClaimRecord } from "@/lib/datasets/claims";
import {
  checkCovidDir,
  convertCheckCovid,
  type CheckCovidSplit,
  type CheckCovidSubset,
} from "@/lib/datasets/check-covid-claims";
import { convertPolitifactHidden, politifactDir } from "@/lib/datasets/politifact-hidden-claims";
import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";
import { invalidateLexemeStats } from "@/lib/retrieval/lexical-stats";
import { search, SEARCH_MODES, type LexicalRanking, type SearchMode } from "@/lib/retrieval/search";
import { analyzeRetrievalTables } from "@/db/queries/retrieval";
import { percentile, scoreRuns, type RetrievalScores } from "./metrics";

/**
 * The retrieval benchmark: ingest a dataset's corpus (once; a second run finds every document
 * unchanged), convert its claims, run every claim through `search` in each mode, and score the
 * rankings against the gold evidence ids. See lib/bench/metrics.ts for the metric definitions.
 */

export type BenchDataset = "politifact-hidden" | "check-covid";

export type RetrievalBenchOptions = {
  dataset: BenchDataset;
  /** The dataset folder, as installed by `dataset download` (the folder itself or its parent). */
  data: string;
  /** Results per query; metrics read the top 5, 10 and 20. Default 20. */
  k?: number;
  /** Only the first n claims (after the subset filter). */
  limit?: number;
  /** The corpus to ingest into and search; default `bench-<dataset>`. */
  corpus?: string;
  /** Check-COVID claims file; default test / composed. */
  split?: CheckCovidSplit;
  subset?: CheckCovidSubset;
  modes?: SearchMode[];
  candidates?: number;
  rrfK?: number;
  mmr?: boolean;
  lexicalRanking?: LexicalRanking;
  denseWeight?: number;
  bm25B?: number;
  matchBudget?: number;
  embedder?: Embedder;
  log?: (line: string) => void;
};

export type RetrieverRow = RetrievalScores & {
  dataset: string;
  /** Which claims: e.g. `gold-resolvable` (every claim with a gold id in the corpus) or `gold-complete`. */
  claim_set: string;
  retriever: string;
  latency_ms_p50: number | null;
  latency_ms_p95: number | null;
};

export type RetrievalBenchReport = {
  dataset: BenchDataset;
  corpus: string;
  corpus_passages: number;
  embedding_model: string;
  k: number;
  config: {
    candidates?: number;
    rrf_k?: number;
    mmr: boolean;
    lexical_ranking: string;
    dense_weight?: number;
    bm25_b?: number;
    match_budget?: number;
    split?: string;
    subset?: string;
  };
  ingestion: { reused: boolean; passages_added: number; seconds: number; passages_per_second: number | null };
  query_embedding: { claims: number; seconds: number; ms_per_claim: number };
  rows: RetrieverRow[];
  notes: string[];
};

type ClaimSet = { name: string; claims: Array<{ claim: ClaimRecord; gold: string[] }> };

async function corpusRecords(dataset: BenchDataset, data: string): Promise<AsyncIterable<SourceRecord>> {
  if (dataset === "politifact-hidden") {
    const { politifactHiddenCorpus } = await import("@/lib/datasets/politifact-hidden-corpus");
    return politifactHiddenCorpus(politifactDir(data));
  }
  const { checkCovidCorpus } = await import("@/lib/datasets/check-covid-corpus");
  return checkCovidCorpus(checkCovidDir(data));
}

function corpusFile(dataset: BenchDataset, data: string) {
  return dataset === "politifact-hidden"
    ? `${politifactDir(data)}/corpus_partial.jsonl`
    : `${checkCovidDir(data)}/corpus.json`;
}

/**
 * The claim sets scored. Gold ids the corpus does not contain (PolitiFact-Hidden's corpus is
 * partial) are left out of the denominator: no retriever over this corpus could return them.
 */
function claimSets(dataset: BenchDataset, claims: ClaimRecord[], inCorpus: Set<string>): ClaimSet[] {
  const resolvable = claims
    .map((claim) => ({ claim, gold: (claim.gold_evidence_ids ?? []).filter((id) => inCorpus.has(id)) }))
    .filter((c) => c.gold.length > 0);
  if (dataset === "politifact-hidden") {
    return [
      { name: "gold-resolvable", claims: resolvable },
      {
        name: "gold-complete",
        claims: resolvable.filter((c) => c.claim.metadata?.gold_evidence_text_complete === true),
      },
    ];
  }
  return [
    { name: "all", claims: resolvable },
    { name: "non-nei", claims: resolvable.filter((c) => c.claim.label !== "NOTENOUGHINFO") },
  ];
}

export async function runRetrievalBench(db: Database, opts: RetrievalBenchOptions): Promise<RetrievalBenchReport> {
  const log = opts.log ?? (() => {});
  const k = opts.k ?? 20;
  const corpusName = opts.corpus ?? `bench-${opts.dataset}`;
  const modes = opts.modes ?? [...SEARCH_MODES];
  const embedder = opts.embedder ?? resolveEmbedder();

  // 1. The corpus, through the same ingestion as any user's files.
  log(`ingesting ${opts.dataset} into corpus "${corpusName}" with ${embedder.id} (unchanged documents are skipped)`);
  const file = corpusFile(opts.dataset, opts.data);
  const ingest = await ingestRecords(db, await corpusRecords(opts.dataset, opts.data), {
    corpus: corpusName,
    embedder,
    source: file,
    kind: `dataset:${opts.dataset}`,
    bytesTotal: fs.statSync(file).size,
    data: opts.data,
    batchSize: 256,
    onProgress: (p) => {
      if (p.recordsDone % 2000 === 0 && p.recordsDone > 0)
        log(`  ${p.recordsDone} records, ${p.passagesAdded} passages added`);
    },
  });
  const reused = ingest.passagesAdded === 0;
  const [corpus] = await findCorpora(db, [corpusName]);
  if (!corpus) throw new Error(`corpus ${corpusName} is missing after ingestion`);
  const passages = await corpusPassageCount(db, corpus.id);
  if (!reused) {
    await analyzeRetrievalTables(db);
    invalidateLexemeStats(db);
  }
  log(
    reused
      ? `corpus reused: ${passages} passages`
      : `ingested ${ingest.passagesAdded} passages in ${ingest.seconds.toFixed(1)} s`,
  );

  // 2. Claims, in our claims format.
  const claims =
    opts.dataset === "politifact-hidden"
      ? await convertPolitifactHidden(opts.data)
      : await convertCheckCovid(opts.data, { split: opts.split ?? "test", subset: opts.subset ?? "composed" });
  const inCorpus = await corpusPassageExternalIds(db, corpus.id);
  const sets = claimSets(opts.dataset, claims, inCorpus).map((s) => ({
    ...s,
    claims: opts.limit ? s.claims.slice(0, opts.limit) : s.claims,
  }));
  const toRun = new Map<string, { claim: ClaimRecord; gold: string[] }>();
  for (const s of sets) for (const c of s.claims) toRun.set(c.claim.id, c);
  const list = [...toRun.values()];

  // 3. Query vectors in batches, timed apart from the database: the latency below is search alone.
  log(`embedding ${list.length} claims`);
  const te = performance.now();
  const vectors = new Map<string, number[]>();
  if (modes.some((m) => m !== "lexical")) {
    for (let i = 0; i < list.length; i += embedder.batchSize) {
      const part = list.slice(i, i + embedder.batchSize);
      const vs = await embedder.embed(part.map((c) => c.claim.claim));
      part.forEach((c, j) => vectors.set(c.claim.id, vs[j]!));
    }
  }
  const embedSeconds = (performance.now() - te) / 1000;

  // 4. Every claim through search, once per mode.
  const ranked: Record<string, Map<string, string[]>> = {};
  const latency: Record<string, Map<string, number>> = {};
  for (const mode of modes) {
    ranked[mode] = new Map();
    latency[mode] = new Map();
    log(`searching ${list.length} claims, ${mode}`);
    for (const c of list) {
      const res = await search(db, {
        text: c.claim.claim,
        corpus: corpus.id,
        k,
        mode,
        before: c.claim.date,
        embedder,
        queryVector: vectors.get(c.claim.id),
        candidates: opts.candidates,
        rrfK: opts.rrfK,
        mmr: opts.mmr,
        lexicalRanking: opts.lexicalRanking,
        weights: opts.denseWeight !== undefined ? { dense: opts.denseWeight } : undefined,
        bm25B: opts.bm25B,
        matchBudget: opts.matchBudget,
      });
      ranked[mode]!.set(
        c.claim.id,
        res.hits.map((h) => h.passageExternalId),
      );
      latency[mode]!.set(c.claim.id, res.timings.totalMs - res.timings.embedMs);
    }
  }

  // 5. Scores per claim set and retriever, plus the authors' own retrieval where the dataset has it.
  const rows: RetrieverRow[] = [];
  for (const s of sets) {
    if (s.claims.length === 0) continue;
    for (const mode of modes) {
      const lat = s.claims.map((c) => latency[mode]!.get(c.claim.id)!);
      rows.push({
        dataset: opts.dataset,
        claim_set: s.name,
        retriever: mode,
        ...scoreRuns(s.claims.map((c) => ({ ranked: ranked[mode]!.get(c.claim.id)!, gold: c.gold }))),
        latency_ms_p50: round(percentile(lat, 50), 2),
        latency_ms_p95: round(percentile(lat, 95), 2),
      });
    }
    const withReference = s.claims.filter((c) => Array.isArray(c.claim.metadata?.reference_top20));
    if (opts.dataset === "politifact-hidden" && s.name === "gold-complete" && withReference.length) {
      rows.push({
        dataset: opts.dataset,
        claim_set: s.name,
        retriever: "reference-bgebase",
        ...scoreRuns(
          withReference.map((c) => ({
            ranked: (c.claim.metadata!.reference_top20 as Array<{ id: string }>).map((x) => x.id),
            // On the complete set every gold id is in the corpus, so this is the claim's whole gold list.
            gold: c.gold,
          })),
        ),
        latency_ms_p50: null,
        latency_ms_p95: null,
      });
    }
  }

  const notes = [
    "recall@k = |gold ∩ top-k| / |gold| per claim, averaged over claims; MRR over the top 20; nDCG@20 with binary relevance.",
    "Gold ids missing from the corpus are not counted (no retriever over it could return them); claims with none left are skipped.",
    "Latency is the search call alone (the claim's vector is computed beforehand, in batches; see query_embedding).",
  ];
  if (opts.dataset === "politifact-hidden") {
    notes.push(
      "Our search runs over the partial corpus (14,879 of 41,952 sentences), so it faces fewer distractors than the reference (bge-base-en-v1.5 over the full corpus); the corpus is closed-world (each claim's own article is in it).",
    );
  }
  return {
    dataset: opts.dataset,
    corpus: corpusName,
    corpus_passages: passages,
    embedding_model: embedder.id,
    k,
    config: {
      candidates: opts.candidates,
      rrf_k: opts.rrfK,
      mmr: !!opts.mmr,
      lexical_ranking: opts.lexicalRanking ?? "bm25",
      dense_weight: opts.denseWeight,
      bm25_b: opts.bm25B,
      match_budget: opts.matchBudget,
      ...(opts.dataset === "check-covid" ? { split: opts.split ?? "test", subset: opts.subset ?? "composed" } : {}),
    },
    ingestion: {
      reused,
      passages_added: ingest.passagesAdded,
      seconds: round(ingest.seconds, 2),
      passages_per_second: reused || ingest.seconds <= 0 ? null : round(ingest.passagesAdded / ingest.seconds, 1),
    },
    query_embedding: {
      claims: vectors.size,
      seconds: round(embedSeconds, 2),
      ms_per_claim: vectors.size ? round((embedSeconds * 1000) / vectors.size, 2) : 0,
    },
    rows,
    notes,
  };
}

function round(x: number, digits: number) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

const pct = (x: number) => (x * 100).toFixed(1);

export function retrievalMarkdown(rows: RetrieverRow[]): string {
  const head =
    "| dataset | claims | retriever | n | R@5 | R@10 | R@20 | hit@20 | MRR | nDCG@20 | p50 ms | p95 ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|";
  const body = rows.map(
    (r) =>
      `| ${r.dataset} | ${r.claim_set} | ${r.retriever} | ${r.claims} | ${pct(r.recall_at_5)} | ${pct(r.recall_at_10)} | ${pct(r.recall_at_20)} | ${pct(r.hit_at_20)} | ${r.mrr.toFixed(3)} | ${r.ndcg_at_20.toFixed(3)} | ${r.latency_ms_p50 ?? "–"} | ${r.latency_ms_p95 ?? "–"} |`,
  );
  return [head, ...body].join("\n");
}
