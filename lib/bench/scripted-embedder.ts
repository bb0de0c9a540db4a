import { createHash } from "node:crypto";
import type { Embedder } from "@/lib/embeddings/registry";

/**
 * A sentence encoder for benchmarks: each word is hashed into one of `dim` buckets, so texts that
 * share words get close vectors (a relevance question restating the claim scores near 1, an
 * off-topic one near 0). Instant and deterministic, so a benchmark measures the runner, not an
 * encoder; it records when it ran so that time is not counted as orchestration.
 */
export function scriptedEmbedder(
  opts: { id?: string; dim?: number } = {},
): Embedder & { intervals: Array<[number, number]>; cpuMs: () => number } {
  const dim = opts.dim ?? 64;
  const intervals: Array<[number, number]> = [];
  // The encoder's CPU (ms): an encoder's work, which the bench takes out of the runner's CPU.
  let cpuMs = 0;
  return {
    id: opts.id ?? `bench:hash-${dim}`,
    dim,
    batchSize: 64,
    intervals,
    cpuMs: () => cpuMs,
    async embed(texts: string[]) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const out = texts.map((t) => {
        const v = new Array<number>(dim).fill(0);
        for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? [])
          v[createHash("md5").update(w).digest().readUInt16BE(0) % dim]! += 1;
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
      intervals.push([t0, performance.now()]);
      const cpu = process.cpuUsage(cpu0);
      cpuMs += (cpu.user + cpu.system) / 1000;
      return out;
    },
  };
}
