import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { analyzeClaimIndex, claimIndexSize, upsertClaimIndex } from "@/db/queries/claim-index";
import { ensureVectorIndex } from "@/db/queries/vector-index";
import { invalidateLexemeStats } from "@/lib/retrieval/lexical-stats";

/**
 * `bench match --scale N`: pads the matching index with synthetic checks until it holds N, to
 * measure latency at a size no public pool has. Each synthetic check mixes the words of three
 * stored checks and takes the normalised mean of their vectors plus noise, so word frequencies
 * and vector neighbourhoods look like real ones (random vectors would be HNSW's worst case).
 * Rows are marked `synthetic:` in source_ref; they are distractors, never relevant.
 */

function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function padMatchIndex(
  db: Database,
  model: string,
  total: number,
  onProgress?: (line: string) => void,
): Promise<{ added: number; seconds: number }> {
  const t0 = performance.now();
  const have = await claimIndexSize(db);
  if (have >= total) return { added: 0, seconds: 0 };
  const real = await db.execute<{ claim: string; v: string }>(sql`
    select c.claim, e.embedding::text as v from claim_index c
    join claim_index_embeddings e on e.claim_id = c.id and e.model = ${model}
    where c.source_ref not like 'synthetic:%'`);
  if (real.rows.length < 3) throw new Error("--scale needs at least 3 embedded checks to build synthetic ones from");
  const texts = real.rows.map((r) => r.claim.split(/\s+/));
  const vecs = real.rows.map((r) => JSON.parse(r.v) as number[]);
  const dim = vecs[0]!.length;
  const rand = rng(42);
  const pick = () => Math.floor(rand() * texts.length);
  const start = await db.execute<{ n: number | string }>(
    sql`select count(*) as n from claim_index where source_ref like 'synthetic:%'`,
  );
  let n = Number(start.rows[0]?.n ?? 0);
  let added = 0;
  const need = total - have;
  while (added < need) {
    const batch = Math.min(1000, need - added);
    const rows = [];
    const vectors: number[][] = [];
    for (let i = 0; i < batch; i++) {
      const src = [pick(), pick(), pick()];
      const words = src.flatMap((k) => texts[k]!.filter(() => rand() < 0.4));
      const claim = words.join(" ") || texts[src[0]!]!.join(" ");
      const v = new Array<number>(dim).fill(0);
      for (const k of src) for (let d = 0; d < dim; d++) v[d]! += vecs[k]![d]! + (rand() - 0.5) * 0.05;
      const norm = Math.hypot(...v) || 1;
      vectors.push(v.map((x) => x / norm));
      rows.push({
        source: "imported" as const,
        sourceRef: `synthetic:${++n}`,
        claim,
        matchText: claim,
        rating: null,
        scale: null,
        publisher: null,
        url: null,
        claimDate: null,
        reviewDate: null,
      });
    }
    const ids = await upsertClaimIndex(db, rows);
    await db.execute(sql`
      insert into claim_index_embeddings (claim_id, model, dim, embedding)
      select * from unnest(${`{${ids.join(",")}}`}::bigint[], ${`{${ids.map(() => `"${model.replace(/"/g, "")}"`).join(",")}}`}::text[],
        ${`{${ids.map(() => dim).join(",")}}`}::int[], ${`{${vectors.map((v) => `"[${v.map((x) => x.toFixed(6)).join(",")}]"`).join(",")}}`}::vector[])`);
    added += batch;
    onProgress?.(`scale: ${have + added} of ${total} stored checks`);
  }
  await ensureVectorIndex(db, model, dim, { table: "claim_index_embeddings" });
  await analyzeClaimIndex(db);
  invalidateLexemeStats(db);
  return { added, seconds: (performance.now() - t0) / 1000 };
}
