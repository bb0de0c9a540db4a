/**
 * Ingestion throughput and memory, printed, nothing asserted. Run with tsx from the project root:
 *   npx tsx scripts/bench-ingest.ts records [passages] [--real]   supplied 512-d vectors (or use-lite with --real)
 *   npx tsx scripts/bench-ingest.ts file <MB>                       a generated JSONL file of that size, cheap hash embedder
 *   npx tsx scripts/bench-ingest.ts dataset <politifact-hidden|check-covid> <dir> [--real]
 * The database is DATABASE_URL's (PostgreSQL) or a fresh PGlite directory in the temp folder.
 * The benchmark corpus is deleted afterwards.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { corpora } from "@/db/schema";
import { ingestDataset, ingestRecords, ingestSource } from "@/lib/corpus/ingest";
import type { SourceRecord } from "@/lib/corpus/types";
import { resolveEmbedder, type Embedder } from "@/lib/embeddings/registry";

const [mode = "records", arg1, arg2] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const real = process.argv.includes("--real");
const url = process.env.DATABASE_URL;
// A throwaway PGlite database, removed at the end (it is hundreds of MB once loaded).
const scratchDb = url ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "cp-bench-"));
const db = await openDatabase(
  scratchDb ? { backend: "pglite", dataDir: scratchDb } : { backend: "postgres", url: url! },
  {
    migrationsDir: path.resolve("db/migrations"),
  },
);
const corpus = `bench-${Date.now()}`;

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);

/** Deterministic and nearly free, so the numbers measure ingestion, not a model. */
function hashEmbedder(dim: number): Embedder {
  return {
    id: `bench:hash-${dim}`,
    dim,
    batchSize: 256,
    async embed(texts) {
      return texts.map((t) => {
        const h = createHash("sha256").update(t).digest();
        return Array.from({ length: dim }, (_, i) => (h[i % 32]! - 128) / 128);
      });
    },
  };
}

const words =
  "council budget bridge toll harbour festival unemployment county crime report flood relief auction hospital governor senator".split(
    " ",
  );
function sentence(i: number, j: number) {
  return `The ${words[(i + j) % words.length]} ${words[(i * 7 + j) % words.length]} was discussed on day ${i} in item ${j} of the record.`;
}

const started = Date.now();
let summary;
if (mode === "records") {
  const total = Number(arg1 ?? 20_000);
  const dim = 512;
  const embedder = real ? resolveEmbedder("local:use-lite") : hashEmbedder(dim);
  async function* records(): AsyncGenerator<SourceRecord> {
    for (let i = 0; i < total; i++) {
      const text = sentence(i, 0);
      const embedding = real ? undefined : Array.from({ length: dim }, (_, k) => Math.sin(i * 31 + k));
      yield { kind: "document", document: { id: `doc-${i}`, text, passages: [{ id: `p-${i}`, text, embedding }] } };
    }
  }
  summary = await ingestRecords(db.db, records(), {
    corpus,
    embedder,
    source: "bench",
    kind: "records",
    batchSize: 256,
  });
} else if (mode === "file") {
  const mb = Number(arg1 ?? 200);
  const file = path.join(os.tmpdir(), `cp-bench-${mb}mb.jsonl`);
  if (!fs.existsSync(file) || fs.statSync(file).size < mb * 1024 * 1024) {
    const out = fs.createWriteStream(file);
    let size = 0;
    for (let i = 0; size < mb * 1024 * 1024; i++) {
      const text = Array.from({ length: 12 }, (_, j) => sentence(i, j)).join(" ");
      const line = `${JSON.stringify({ id: `d${i}`, title: `Document ${i}`, text, published_at: "2024-01-01" })}\n`;
      size += Buffer.byteLength(line);
      if (!out.write(line)) await new Promise<void>((r) => out.once("drain", () => r()));
    }
    await new Promise<void>((r) => out.end(() => r()));
  }
  console.error(`file ${file}: ${(fs.statSync(file).size / 1024 ** 2).toFixed(0)} MiB`);
  summary = await ingestSource(db.db, file, {
    corpus,
    embedder: hashEmbedder(16),
    onProgress: (p) =>
      process.stderr.write(
        `\r${(p.bytesDone / 1024 ** 2).toFixed(0)} MiB, ${p.passagesAdded} passages, rss ${(process.memoryUsage().rss / 1024 ** 2).toFixed(0)} MiB   `,
      ),
  });
  process.stderr.write("\n");
} else if (mode === "dataset") {
  summary = await ingestDataset(db.db, arg1!, arg2!, {
    corpus,
    embedder: real ? resolveEmbedder("local:use-lite") : hashEmbedder(512),
    batchSize: 256,
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}
const seconds = (Date.now() - started) / 1000;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
console.log(
  JSON.stringify({
    backend: db.backend,
    mode,
    real,
    docs: summary.docsAdded,
    passages: summary.passagesAdded,
    errors: summary.errors,
    seconds,
    passagesPerSecond: Math.round(summary.passagesAdded / seconds),
    peakRssMiB: Math.round(peakRss / 1024 ** 2),
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
await db.db.delete(corpora).where(eq(corpora.name, corpus));
await db.close();
if (scratchDb) fs.rmSync(scratchDb, { recursive: true, force: true });
