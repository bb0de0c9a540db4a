import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { denseCandidates, explainDense } from "@/db/queries/retrieval";
import { ensureVectorIndex, vectorIndexName } from "@/db/queries/vector-index";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { Embedder } from "@/lib/embeddings/registry";
import { search, SearchError } from "@/lib/retrieval/search";
import { backend, freshDatabase } from "./test-db";

/**
 * Retrieval over hand-built vectors: the fake embedder maps known query strings to fixed vectors,
 * so the dense order is known exactly and each assertion says which retriever put what where.
 */

const MODEL = "test:fake-4d";
const OTHER = "test:other-4d";
const DIM = 4;

function unit(v: number[]) {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

const QUERY_VECTORS: Record<string, number[]> = {
  "gas prices 2008": [1, 0, 0, 0],
  "vaccine social security": [0, 1, 0, 0],
  "medal auction children": [0, 0, 1, 0],
  "filler probe": [0, 0, 0, 1],
};

const fake: Embedder = {
  id: MODEL,
  dim: DIM,
  batchSize: 8,
  async embed(texts) {
    return texts.map((t) => {
      const v = QUERY_VECTORS[t];
      if (!v) throw new Error(`fake embedder has no vector for "${t}"`);
      return v;
    });
  },
};

/** A small deterministic PRNG (mulberry32), so the filler vectors are the same on every run. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let h: DbHandle;
const ids: Record<string, number> = {};
let newsId = "";
let doc1 = 0;
let doc2 = 0;

type P = { key: string; text: string; vec?: number[]; other?: number[]; published?: string };

async function addDocument(corpusId: string, externalId: string, published: string | null, ps: P[]) {
  const [doc] = await h.db
    .insert(s.documents)
    .values({
      corpusId,
      externalId,
      title: `Title ${externalId}`,
      url: `https://example.org/${externalId}`,
      publishedAt: published ? new Date(published) : null,
      contentHash: externalId,
    })
    .returning();
  const rows = await h.db
    .insert(s.passages)
    .values(
      ps.map((p, i) => ({
        documentId: doc!.id,
        corpusId,
        externalId: p.key,
        ordinal: i,
        text: p.text,
        charStart: i * 100,
        charEnd: i * 100 + p.text.length,
        publishedAt: p.published ? new Date(p.published) : published ? new Date(published) : null,
      })),
    )
    .returning({ id: s.passages.id, externalId: s.passages.externalId });
  const emb: Array<typeof s.passageEmbeddings.$inferInsert> = [];
  rows.forEach((r, i) => {
    ids[r.externalId] = r.id;
    const p = ps[i]!;
    if (p.vec) emb.push({ passageId: r.id, model: MODEL, dim: DIM, embedding: unit(p.vec) });
    if (p.other) emb.push({ passageId: r.id, model: OTHER, dim: DIM, embedding: unit(p.other) });
  });
  for (let i = 0; i < emb.length; i += 200) await h.db.insert(s.passageEmbeddings).values(emb.slice(i, i + 200));
  return doc!.id;
}

beforeAll(async () => {
  h = await freshDatabase();
  const [news] = await h.db.insert(s.corpora).values({ name: "news", embeddingModel: MODEL }).returning();
  const [other] = await h.db.insert(s.corpora).values({ name: "archive", embeddingModel: MODEL }).returning();
  const [dated] = await h.db.insert(s.corpora).values({ name: "dated", embeddingModel: MODEL }).returning();
  newsId = news!.id;
  doc1 = await addDocument(news!.id, "doc-gas", "2021-06-01", [
    // Dense order for [1,0,0,0]: g1 (cos 1), g2 (0.97), g3 (0.89), g4 (0.71).
    { key: "g1", text: "Fuel costs rose steeply during that summer.", vec: [1, 0, 0, 0] },
    { key: "g2", text: "Drivers complained at the pump about what they paid.", vec: [1, 0.25, 0, 0] },
    { key: "g3", text: "Gas prices were way higher in 2008 under George W. Bush.", vec: [1, 0.5, 0, 0] },
    { key: "g4", text: "Gas prices in 2008 peaked at about four dollars a gallon.", vec: [1, 1, 0, 0] },
    // Lexically the best match for the gas query, but pointing elsewhere densely.
    { key: "g5", text: "Gas prices, gas prices and more gas prices in 2008.", vec: [0, 0, 0, 1] },
  ]);
  doc2 = await addDocument(news!.id, "doc-vax", "2021-09-01", [
    { key: "v1", text: "The vaccine mandate does not touch Social Security payments.", vec: [0, 1, 0, 0] },
    // Near-duplicates of each other for the medal query, and one different passage.
    { key: "m1", text: "Medals were auctioned to help children in Ukraine.", vec: [0.3, 0, 1, 0] },
    { key: "m2", text: "Medals were auctioned to help the children of Ukraine.", vec: [0.3, 0.02, 1, 0] },
    { key: "m3", text: "The auction took place in 2012, long before the war.", vec: [-0.3, 0, 0.9, 0.1] },
    // Only a vector of another model, pointing exactly at the gas query.
    { key: "x1", text: "An unrelated sentence stored under another embedding model.", other: [1, 0, 0, 0] },
  ]);
  const [rare] = await h.db.insert(s.corpora).values({ name: "idf", embeddingModel: MODEL }).returning();
  await addDocument(rare!.id, "idf-doc", null, [
    ...Array.from({ length: 6 }, (_, i) => ({ key: `common-${i}`, text: `The report number ${i} was filed.` })),
    { key: "rare", text: "A zeppelin was filed." },
  ]);
  await addDocument(other!.id, "arch-1", "2020-01-01", [
    { key: "a1", text: "Gas prices in 2008 according to the archive.", vec: [1, 0, 0, 0] },
  ]);

  // 300 passages close to the probe published after the cutoff, 30 farther away before it: an
  // index scan that stopped at ef_search neighbours would find none of the early ones.
  const rand = rng(42);
  const late: P[] = [];
  const early: P[] = [];
  for (let i = 0; i < 300; i++)
    late.push({
      key: `late-${i}`,
      text: `Later report number ${i}.`,
      vec: [rand() * 0.1, rand() * 0.1, rand() * 0.1, 1],
    });
  for (let i = 0; i < 30; i++)
    early.push({
      key: `early-${i}`,
      text: `Earlier report number ${i}.`,
      vec: [0.6 + rand(), 0.6 + rand(), 0.6 + rand(), 0.3],
    });
  await addDocument(dated!.id, "late", "2023-01-01", late);
  await addDocument(dated!.id, "early", "2019-01-01", early);
  await ensureVectorIndex(h.db, MODEL, DIM);
  await ensureVectorIndex(h.db, OTHER, DIM);
});

afterAll(async () => {
  await h?.close();
});

const keysOf = (r: Awaited<ReturnType<typeof search>>) => r.hits.map((x) => x.passageExternalId);

describe(`retrieval on ${backend}`, () => {
  it("dense ranks by cosine similarity among the model's vectors", async () => {
    const r = await search(h.db, { text: "gas prices 2008", corpus: "news", mode: "dense", k: 4, embedder: fake });
    expect(keysOf(r)).toEqual(["g1", "g2", "g3", "g4"]);
    expect(r.hits[0]!.dense).toEqual({ rank: 1, score: expect.closeTo(1, 5) });
    expect(r.hits[3]!.score).toBeCloseTo(Math.SQRT1_2, 4);
    expect(r.hits[0]!.lexical).toBeNull();
    expect(r.model).toBe(MODEL);
  });

  it("never returns vectors of another model", async () => {
    const r = await search(h.db, { text: "gas prices 2008", corpus: "news", mode: "dense", k: 50, embedder: fake });
    expect(keysOf(r)).not.toContain("x1");
    expect(r.hits).toHaveLength(9);
  });

  it("lexical ranks by OR'd stems and ts_rank_cd, so a long query still matches", async () => {
    const r = await search(h.db, { text: "gas prices 2008", corpus: "news", mode: "lexical", k: 10 });
    expect(keysOf(r).slice(0, 3)).toEqual(["g5", expect.stringMatching(/^g[34]$/), expect.stringMatching(/^g[34]$/)]);
    expect(keysOf(r)).toHaveLength(3);
    expect(r.model).toBeNull();
    // Not one passage contains every word of this query: an AND query would match nothing.
    const long = await search(h.db, {
      text: "Were gas prices higher in 2008 than the vaccine mandate on Social Security?",
      corpus: "news",
      mode: "lexical",
    });
    expect(keysOf(long)).toEqual(expect.arrayContaining(["g3", "g4", "g5", "v1"]));
  });

  it("BM25 weighs a rare stem above a common one; ts_rank_cd, without IDF, does not", async () => {
    const bm25 = await search(h.db, { text: "report zeppelin", corpus: "idf", mode: "lexical", k: 3 });
    expect(keysOf(bm25)[0]).toBe("rare");
    const cd = await search(h.db, {
      text: "report zeppelin",
      corpus: "idf",
      mode: "lexical",
      k: 3,
      lexicalRanking: "ts_rank_cd",
    });
    expect(keysOf(cd)[0]).toMatch(/^common-/);
    // A stem in every passage still counts, but cannot outrank the rare one.
    const both = await search(h.db, { text: "filed zeppelin", corpus: "idf", mode: "lexical", k: 7 });
    expect(keysOf(both)).toHaveLength(7);
    expect(keysOf(both)[0]).toBe("rare");
  });

  it("hybrid fuses both rankings with RRF and keeps each side's rank", async () => {
    const r = await search(h.db, { text: "gas prices 2008", corpus: "news", mode: "hybrid", k: 5, embedder: fake });
    // g3 and g4 are found by both retrievers; g1 (dense #1 only) and g5 (lexical #1 only) follow.
    expect(keysOf(r).slice(0, 2).sort()).toEqual(["g3", "g4"]);
    const g3 = r.hits.find((x) => x.passageExternalId === "g3")!;
    expect(g3.dense?.rank).toBe(3);
    expect(g3.lexical?.rank).toBeGreaterThanOrEqual(2);
    expect(g3.score).toBeCloseTo(1 / (60 + 3) + 1 / (60 + g3.lexical!.rank), 10);
    expect(keysOf(r)).toEqual(expect.arrayContaining(["g1", "g5"]));
    expect(r.candidates.dense).toBeGreaterThan(0);
    expect(r.candidates.lexical).toBe(3);
  });

  it("returns what the search box needs: document, offsets, matched terms", async () => {
    const r = await search(h.db, { text: "gas prices 2008", corpus: "news", mode: "hybrid", k: 5, embedder: fake });
    const g4 = r.hits.find((x) => x.passageExternalId === "g4")!;
    expect(g4.document).toMatchObject({
      id: doc1,
      externalId: "doc-gas",
      title: "Title doc-gas",
      url: "https://example.org/doc-gas",
      publishedAt: "2021-06-01T00:00:00.000Z",
    });
    expect(g4.corpus).toEqual({ id: newsId, name: "news" });
    expect(g4).toMatchObject({ charStart: 300, charEnd: 300 + g4.text.length, ordinal: 3 });
    expect(g4.matchedTerms).toEqual(["gas", "prices", "2008"]);
    expect(g4.highlights.map((x) => g4.text.slice(x.start, x.end))).toEqual(["Gas", "prices", "2008"]);
    const g1 = r.hits.find((x) => x.passageExternalId === "g1")!;
    expect(g1.matchedTerms).toEqual([]);
    expect(r.queryTerms.sort()).toEqual(["2008", "gas", "price"]);
  });

  it("filters by corpus and by document", async () => {
    const all = await search(h.db, { text: "gas prices 2008", mode: "dense", k: 3, embedder: fake });
    expect(keysOf(all)).toContain("a1");
    const archive = await search(h.db, {
      text: "gas prices 2008",
      corpus: "archive",
      mode: "hybrid",
      k: 10,
      embedder: fake,
    });
    expect(keysOf(archive)).toEqual(["a1"]);
    const both = await search(h.db, { text: "gas prices 2008", corpus: ["archive", "news"], mode: "lexical", k: 10 });
    expect(new Set(both.hits.map((x) => x.corpus.name))).toEqual(new Set(["archive", "news"]));
    const inDoc = await search(h.db, {
      text: "gas prices 2008",
      corpus: "news",
      documentIds: [doc2],
      mode: "hybrid",
      k: 10,
      embedder: fake,
    });
    expect(inDoc.hits.every((x) => x.document.id === doc2)).toBe(true);
    expect(keysOf(inDoc)).toContain("m3");
    await expect(search(h.db, { text: "gas", corpus: "nope", mode: "lexical" })).rejects.toThrow(SearchError);
  });

  it("keeps passages published after the claim date out", async () => {
    const corpus = ["news", "archive"];
    const r = await search(h.db, {
      text: "gas prices 2008",
      corpus,
      mode: "hybrid",
      k: 10,
      before: "2021-01-01",
      embedder: fake,
    });
    expect(keysOf(r)).toEqual(["a1"]);
    const later = await search(h.db, {
      text: "gas prices 2008",
      corpus,
      mode: "hybrid",
      k: 10,
      before: new Date("2021-07-01"),
      embedder: fake,
    });
    expect(keysOf(later)).toEqual(expect.arrayContaining(["a1", "g1", "g5"]));
    expect(keysOf(later)).not.toContain("v1");
  });

  it("still returns k results through the HNSW index when the nearest neighbours are all filtered out", async () => {
    const params = {
      model: MODEL,
      dim: DIM,
      vector: QUERY_VECTORS["filler probe"]!,
      limit: 20,
      corpusIds: undefined,
      before: new Date("2020-01-01"),
      plan: "index" as const,
      // pgvector's default candidate list; the product's own (efSearchFor) would cover this small table.
      efSearch: 40,
    };
    const plan = await explainDense(h.db, params);
    expect(plan).toContain(vectorIndexName(MODEL));
    // Without the iterative scan the index yields ef_search neighbours, all later than the cutoff.
    const stopped = await denseCandidates(h.db, { ...params, iterativeScan: "off" });
    expect(stopped.length).toBeLessThan(20);
    const hits = await denseCandidates(h.db, params);
    expect(hits).toHaveLength(20);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    const r = await search(h.db, {
      text: "filler probe",
      corpus: "dated",
      mode: "dense",
      k: 20,
      before: "2020-01-01",
      embedder: fake,
      densePlan: "index",
    });
    expect(r.hits).toHaveLength(20);
    expect(r.hits.every((x) => x.passageExternalId.startsWith("early-"))).toBe(true);
  });

  it("exact and index plans agree on the dense ranking", async () => {
    const base = { text: "filler probe", corpus: "dated", mode: "dense" as const, k: 10, embedder: fake };
    const exact = await search(h.db, { ...base, densePlan: "exact" });
    const index = await search(h.db, { ...base, densePlan: "index", efSearch: 200 });
    expect(keysOf(index)).toEqual(keysOf(exact));
  });

  it("MMR moves a near-duplicate below a different passage", async () => {
    const plain = await search(h.db, {
      text: "medal auction children",
      corpus: "news",
      mode: "dense",
      k: 3,
      embedder: fake,
    });
    expect(keysOf(plain)).toEqual(["m1", "m2", "m3"]);
    const diverse = await search(h.db, {
      text: "medal auction children",
      corpus: "news",
      mode: "dense",
      k: 3,
      embedder: fake,
      mmr: true,
    });
    expect(keysOf(diverse)).toEqual(["m1", "m3", "m2"]);
    expect(diverse.mmr).toEqual({ lambda: 0.7, pool: 50 });
  });

  it("rejects empty queries and bad k", async () => {
    await expect(search(h.db, { text: "   " })).rejects.toThrow(/empty/);
    await expect(search(h.db, { text: "gas", k: 0, mode: "lexical" })).rejects.toThrow(/k must be/);
  });
});
