import { createHash } from "node:crypto";
import type { Embedder } from "@/lib/embeddings/registry";

/**
 * A deterministic stand-in for an embedding model: each word is hashed into one of `dim` buckets,
 * so texts sharing words get similar vectors. Real enough for storage and ranking tests, and fast.
 * `failAfter` makes the n+1-th call throw, to simulate a crash in the middle of a run.
 */
export function fakeEmbedder(
  opts: { id?: string; dim?: number; batchSize?: number; failAfter?: number } = {},
): Embedder & { calls: number } {
  const dim = opts.dim ?? 16;
  const embedder = {
    id: opts.id ?? "test:hash-16",
    dim,
    batchSize: opts.batchSize ?? 8,
    calls: 0,
    async embed(texts: string[]) {
      if (opts.failAfter !== undefined && embedder.calls >= opts.failAfter)
        throw new Error("simulated crash in the embedding model");
      embedder.calls++;
      return texts.map((t) => {
        const v = new Array<number>(dim).fill(0);
        for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? [])
          v[createHash("md5").update(w).digest()[0]! % dim]! += 1;
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
  };
  return embedder;
}
