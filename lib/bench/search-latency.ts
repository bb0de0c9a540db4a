import type { Database } from "@/db/client";
import { analyzeRetrievalTables, corpusPassageCount, findCorpora } from "@/db/queries/retrieval";
import { ingestRecords } from "@/lib/corpus/ingest";
import type { SourceRecord } from "@/lib/corpus/types";
import type { Embedder } from "@/lib/embeddings/registry";
import { search, type SearchQuery } from "@/lib/retrieval/search";
import { mean, percentile } from "./metrics";

/**
 * Search latency at scale without an embedding model in the loop: synthetic passages (sentences
 * recombined from a word list, Zipf-distributed like real text, so the GIN index sees common and
 * rare stems) with random unit vectors supplied directly. The same queries run through the HNSW
 * index and through an exact scan, so the report gives the speed-up and the index's recall.
 */

export const LATENCY_MODEL = "bench:random-512";
export const LATENCY_DIM = 512;

/** Vectors are always supplied; being asked to embed means the benchmark is miswired. */
export const randomVectorEmbedder: Embedder = {
  id: LATENCY_MODEL,
  dim: LATENCY_DIM,
  batchSize: 1024,
  async embed() {
    throw new Error(`${LATENCY_MODEL} has no model: the latency benchmark supplies its vectors`);
  },
};

/** mulberry32: tiny, fast and deterministic, so a second run regenerates identical documents (and skips them). */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomUnitVector(rand: () => number, dim = LATENCY_DIM): number[] {
  const v = new Array<number>(dim);
  let n = 0;
  for (let i = 0; i < dim; i += 2) {
    // Box-Muller: Gaussian components make the direction uniform on the sphere.
    const u = Math.max(rand(), 1e-12);
    const r = Math.sqrt(-2 * Math.log(u));
    const a = 2 * Math.PI * rand();
    v[i] = r * Math.cos(a);
    if (i + 1 < dim) v[i + 1] = r * Math.sin(a);
  }
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  // Rounded to 6 digits: the text form sent to the server stays short, the direction unchanged in practice.
  return v.map((x) => Math.round((x / n) * 1e6) / 1e6);
}

// Function words and common news vocabulary first (the head of the Zipf curve), then content words.
const COMMON = `the of and to in a is that for it as was with be by on not he this are or his from at which but have an
they you were her she there been one all we their has would when if so no will more can who said about out up its than
what them some could into only time other new people two first also after years year state states president government
percent million tax jobs health care law bill vote votes voted federal public money workers economy business budget
school schools children families women men police crime city county country world war military security border
immigration energy oil gas prices price climate water food drug drugs vaccine vaccines covid virus hospital doctors
insurance medicare medicaid social spending debt deficit income wages unemployment rate rates growth trade china
russia election elections campaign senator governor congress house senate democrats republicans party policy
report study data number numbers record history national local american americans support plan program programs
billion increase decrease higher lower since during before under over against between while because however still
claim claims according official officials former current week month months day days today last next early late`
  .split(/\s+/)
  .filter(Boolean);

const SYLLABLES =
  "ba be bi bo bu ca co cu da de di do fa fe fi fo ga ge go ha he hi ho ka ke ki ko la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo za ze zi zo".split(
    " ",
  );

/** A vocabulary of `size` words: the common list, then invented words for the long tail. */
export function vocabulary(size = 20_000, seed = 7): string[] {
  const rand = prng(seed);
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < size) {
    const n = 2 + Math.floor(rand() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

/** Samples word ranks with probability proportional to 1 / (rank + 2.7) (Zipf-Mandelbrot, exponent 1). */
export function zipfSampler(n: number, rand: () => number) {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) cdf[i] = acc += 1 / (i + 1 + 2.7);
  return () => {
    const x = rand() * acc;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function sentenceMaker(seed: number, vocab = vocabulary()) {
  const rand = prng(seed);
  const pick = zipfSampler(vocab.length, rand);
  return (minWords: number, maxWords: number) => {
    const n = minWords + Math.floor(rand() * (maxWords - minWords + 1));
    const words = Array.from({ length: n }, () => vocab[pick()]!);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    return `${words.join(" ")}.`;
  };
}

const DAY = 86_400_000;
const START = Date.UTC(2015, 0, 1);
const SPAN_DAYS = 3650;

/** 10 passages of 2-3 sentences per document; dates spread over ten years for the date filter. */
export async function* syntheticRecords(passages: number, seed = 1): AsyncGenerator<SourceRecord> {
  const rand = prng(seed);
  const sentence = sentenceMaker(seed + 1);
  const perDoc = 10;
  for (let d = 0; d * perDoc < passages; d++) {
    const count = Math.min(perDoc, passages - d * perDoc);
    const ps = Array.from({ length: count }, (_, i) => ({
      id: `syn-${d}-${i}`,
      text: Array.from({ length: 2 + Math.floor(rand() * 2) }, () => sentence(8, 18)).join(" "),
      embedding: randomUnitVector(rand),
    }));
    yield {
      kind: "document",
      document: {
        id: `syn-${d}`,
        title: `Synthetic document ${d}`,
        text: ps.map((p) => p.text).join("\n\n"),
        publishedAt: new Date(START + Math.floor(rand() * SPAN_DAYS) * DAY),
        passages: ps,
      },
    };
  }
}

export type LatencyBenchOptions = {
  passages?: number;
  queries?: number;
  k?: number;
  corpus?: string;
  efSearch?: number;
  candidates?: number;
  log?: (line: string) => void;
};

export type LatencyRow = {
  retriever: string;
  plan: "hnsw" | "exact" | "gin";
  filter: "none" | "before-date";
  queries: number;
  latency_ms_p50: number;
  latency_ms_p95: number;
  latency_ms_mean: number;
};

export type LatencyBenchReport = {
  backend?: string;
  passages: number;
  dim: number;
  k: number;
  ingestion: { reused: boolean; passages_added: number; seconds: number; passages_per_second: number | null };
  rows: LatencyRow[];
  /** Hybrid p95 exact / hybrid p95 HNSW. */
  speedup_p95: number;
  /** Share of the exact dense top-k the HNSW scan also returns (random vectors are HNSW's hardest case). */
  hnsw_recall_at_k: number;
  notes: string[];
};

export async function runSearchLatencyBench(db: Database, opts: LatencyBenchOptions = {}): Promise<LatencyBenchReport> {
  const log = opts.log ?? (() => {});
  const n = opts.passages ?? 100_000;
  const k = opts.k ?? 20;
  const nq = opts.queries ?? 200;
  const corpusName = opts.corpus ?? `bench-latency-${n}`;

  log(`loading ${n} synthetic passages into "${corpusName}" (vectors supplied; unchanged documents are skipped)`);
  let lastLog = 0;
  const ingest = await ingestRecords(db, syntheticRecords(n), {
    corpus: corpusName,
    embedder: randomVectorEmbedder,
    source: `synthetic:${n}`,
    kind: "synthetic",
    batchSize: 100,
    onProgress: (p) => {
      if (p.recordsDone - lastLog >= 1000) {
        lastLog = p.recordsDone;
        log(
          `  ${p.recordsDone * 10} passages read, ${p.passagesAdded} added${p.passagesPerSecond ? `, ${p.passagesPerSecond}/s` : ""}`,
        );
      }
    },
  });
  const reused = ingest.passagesAdded === 0;
  const [corpus] = await findCorpora(db, [corpusName]);
  if (!corpus) throw new Error(`corpus ${corpusName} is missing after ingestion`);
  const total = await corpusPassageCount(db, corpus.id);
  await analyzeRetrievalTables(db);

  const rand = prng(99);
  const sentence = sentenceMaker(1234);
  const queries = Array.from({ length: nq }, () => ({ text: sentence(8, 16), vector: randomUnitVector(rand) }));
  const before = new Date(START + (SPAN_DAYS / 2) * DAY);

  const base = (q: (typeof queries)[number]): SearchQuery => ({
    text: q.text,
    corpus: corpus.id,
    k,
    embedder: randomVectorEmbedder,
    queryVector: q.vector,
    efSearch: opts.efSearch,
    candidates: opts.candidates,
  });

  const configs: Array<{
    retriever: string;
    plan: LatencyRow["plan"];
    filter: LatencyRow["filter"];
    q: (x: (typeof queries)[number]) => SearchQuery;
  }> = [
    { retriever: "hybrid", plan: "hnsw", filter: "none", q: (x) => ({ ...base(x), mode: "hybrid" }) },
    {
      retriever: "hybrid",
      plan: "exact",
      filter: "none",
      q: (x) => ({ ...base(x), mode: "hybrid", densePlan: "exact" }),
    },
    { retriever: "hybrid", plan: "hnsw", filter: "before-date", q: (x) => ({ ...base(x), mode: "hybrid", before }) },
    { retriever: "dense", plan: "hnsw", filter: "none", q: (x) => ({ ...base(x), mode: "dense" }) },
    {
      retriever: "dense",
      plan: "exact",
      filter: "none",
      q: (x) => ({ ...base(x), mode: "dense", densePlan: "exact" }),
    },
    { retriever: "lexical", plan: "gin", filter: "none", q: (x) => ({ ...base(x), mode: "lexical" }) },
  ];

  const rows: LatencyRow[] = [];
  const denseTop: Record<string, string[][]> = {};
  for (const c of configs) {
    log(`timing ${nq} ${c.retriever} queries (${c.plan}, filter ${c.filter})`);
    // Warm-up: caches and the first plans are not what a running server sees.
    for (const x of queries.slice(0, Math.min(10, nq))) await search(db, c.q(x));
    const times: number[] = [];
    const tops: string[][] = [];
    for (const x of queries) {
      const res = await search(db, c.q(x));
      times.push(res.timings.totalMs - res.timings.embedMs);
      tops.push(res.hits.map((h) => h.passageExternalId));
    }
    if (c.retriever === "dense" && c.filter === "none") denseTop[c.plan] = tops;
    rows.push({
      retriever: c.retriever,
      plan: c.plan,
      filter: c.filter,
      queries: nq,
      latency_ms_p50: round(percentile(times, 50)),
      latency_ms_p95: round(percentile(times, 95)),
      latency_ms_mean: round(mean(times)),
    });
  }
  const recall = mean(
    (denseTop.exact ?? []).map((exact, i) => {
      const got = new Set(denseTop.hnsw?.[i] ?? []);
      return exact.length ? exact.filter((id) => got.has(id)).length / exact.length : 1;
    }),
  );
  const hy = rows.filter((r) => r.retriever === "hybrid" && r.filter === "none");
  const hnswP95 = hy.find((r) => r.plan === "hnsw")!.latency_ms_p95;
  const exactP95 = hy.find((r) => r.plan === "exact")!.latency_ms_p95;
  return {
    passages: total,
    dim: LATENCY_DIM,
    k,
    ingestion: {
      reused,
      passages_added: ingest.passagesAdded,
      seconds: round(ingest.seconds),
      passages_per_second: reused || ingest.seconds <= 0 ? null : round(ingest.passagesAdded / ingest.seconds),
    },
    rows,
    speedup_p95: round(exactP95 / hnswP95),
    hnsw_recall_at_k: round(recall, 3),
    notes: [
      "Latency is one search call with the query vector supplied (no embedding), including fusion and hydration with highlights.",
      "Random vectors have no cluster structure, the hardest case for HNSW recall; real embeddings do better at the same ef_search.",
      "Ingestion includes writing documents, passages, the generated tsvector and the HNSW index maintained during the load.",
    ],
  };
}

function round(x: number, digits = 2) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function latencyMarkdown(r: LatencyBenchReport, label: string): string {
  const head = `| backend | passages | retriever | dense plan | filter | p50 ms | p95 ms | mean ms |\n|---|---|---|---|---|---|---|---|`;
  const body = r.rows.map(
    (x) =>
      `| ${label} | ${r.passages} | ${x.retriever} | ${x.plan} | ${x.filter} | ${x.latency_ms_p50} | ${x.latency_ms_p95} | ${x.latency_ms_mean} |`,
  );
  return [head, ...body].join("\n");
}
