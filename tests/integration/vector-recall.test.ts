import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { denseCandidates } from "@/db/queries/retrieval";
import { ensureVectorIndex } from "@/db/queries/vector-index";
import { claimCandidates } from "@/lib/matching/retrieve";
import { backend, freshDatabase } from "./test-db";

/**
 * Recall of the HNSW index against exact search at a size where pgvector's default search
 * (`hnsw.ef_search` 40) loses true neighbours: a few thousand clustered vectors (clusters are what
 * real embeddings look like, and HNSW's hard case), searched unfiltered through the claim matcher
 * and filtered to one corpus of three through corpus retrieval. The product's dense search must
 * return exactly the neighbours a brute-force scan returns.
 */

const MODEL = "test:recall";
const DIM = 128;
const ROWS = 4000;
const QUERIES = 30;
const K = 50;

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(7);
const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
const unit = (v: number[]) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const centres = Array.from({ length: 40 }, () => unit(Array.from({ length: DIM }, gauss)));
/** A point near a random cluster centre: many near-ties, as among claims on one topic. */
const point = () => {
  const c = centres[Math.floor(rand() * centres.length)]!;
  return unit(c.map((x) => x + gauss() * 0.3));
};
const literal = (vs: number[][]) => `{${vs.map((v) => `"[${v.map((x) => x.toFixed(6)).join(",")}]"`).join(",")}}`;

let h: DbHandle;
const corpora: string[] = [];
const queries = Array.from({ length: QUERIES }, point);

beforeAll(async () => {
  h = await freshDatabase();
  for (const name of ["a", "b", "c"]) {
    const r = await h.db.execute<{ id: string }>(
      sql`insert into corpora (name, embedding_model) values (${name}, ${MODEL}) returning id`,
    );
    corpora.push(r.rows[0]!.id);
  }
  const docs: number[] = [];
  for (const c of corpora) {
    const r = await h.db.execute<{ id: number }>(
      sql`insert into documents (corpus_id, external_id, content_hash) values (${c}, 'd', 'd') returning id`,
    );
    docs.push(Number(r.rows[0]!.id));
  }
  // Set-based (unnest of typed arrays: one parameter each, whatever the size), and still 200 rows
  // per statement, the bound PGlite is known to take for the rows a statement returns.
  for (let from = 0; from < ROWS; from += 200) {
    const n = Math.min(200, ROWS - from);
    const vs = Array.from({ length: n }, point);
    const which = Array.from({ length: n }, (_, i) => (from + i) % 3);
    const p = await h.db.execute<{ id: number }>(sql`
      insert into passages (document_id, corpus_id, external_id, ordinal, text)
      select d, c, 'p' || o, o, 'passage ' || o
      from unnest(${`{${which.map((w) => docs[w]).join(",")}}`}::bigint[], ${`{${which.map((w) => corpora[w]).join(",")}}`}::uuid[],
                  ${`{${which.map((_, i) => from + i).join(",")}}`}::int[]) as t(d, c, o)
      returning id`);
    const ids = p.rows.map((r) => Number(r.id));
    await h.db.execute(sql`
      insert into passage_embeddings (passage_id, model, dim, embedding)
      select id, ${MODEL}, ${DIM}, v from unnest(${`{${ids.join(",")}}`}::bigint[], ${literal(vs)}::vector[]) as t(id, v)`);
    const cl = await h.db.execute<{ id: number }>(sql`
      insert into claim_index (source, source_ref, claim, match_text)
      select 'imported', 'r' || o, 'claim ' || o, 'claim ' || o from unnest(${`{${ids.map((_, i) => from + i).join(",")}}`}::int[]) as t(o)
      returning id`);
    await h.db.execute(sql`
      insert into claim_index_embeddings (claim_id, model, dim, embedding)
      select id, ${MODEL}, ${DIM}, v from unnest(${`{${cl.rows.map((r) => Number(r.id)).join(",")}}`}::bigint[], ${literal(vs)}::vector[]) as t(id, v)`);
  }
  await ensureVectorIndex(h.db, MODEL, DIM);
  await ensureVectorIndex(h.db, MODEL, DIM, { table: "claim_index_embeddings" });
  await h.db.execute(sql`analyze`);
}, 240_000);

afterAll(async () => {
  await h?.close();
});

/** Neighbours the index returned that exact search has in its top k, over all queries. */
function recall(got: number[][], exact: number[][]) {
  let hit = 0;
  let all = 0;
  got.forEach((g, i) => {
    const want = new Set(exact[i]);
    hit += g.filter((id) => want.has(id)).length;
    all += want.size;
  });
  return hit / all;
}

describe(`HNSW recall against exact search on ${backend}`, () => {
  it("the claim matcher's dense list is the exact top 50", async () => {
    const got: number[][] = [];
    const exact: number[][] = [];
    for (const q of queries) {
      const c = await claimCandidates(h.db, { text: "claim", vector: { model: MODEL, values: q } });
      got.push(c.dense.map((x) => x.passageId));
      const e = await denseCandidates(h.db, {
        table: "claim_index",
        model: MODEL,
        dim: DIM,
        vector: q,
        limit: K,
        plan: "exact",
      });
      exact.push(e.map((x) => x.passageId));
    }
    expect(recall(got, exact)).toBeGreaterThanOrEqual(0.99);
  }, 120_000);

  it("a corpus-filtered search finds the exact top 20 of that corpus", async () => {
    const got: number[][] = [];
    const exact: number[][] = [];
    for (const q of queries) {
      const p = { model: MODEL, dim: DIM, vector: q, limit: 20, corpusIds: [corpora[1]!] };
      got.push((await denseCandidates(h.db, { ...p, plan: "index" })).map((x) => x.passageId));
      exact.push((await denseCandidates(h.db, { ...p, plan: "exact" })).map((x) => x.passageId));
    }
    expect(recall(got, exact)).toBeGreaterThanOrEqual(0.99);
  }, 120_000);
});
