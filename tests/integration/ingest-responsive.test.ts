import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestRecords } from "@/lib/corpus/ingest";
import type { SourceRecord } from "@/lib/corpus/types";
import { parseConfig } from "@/lib/config";
import { miniLmEmbedder, miniLmEngineStatus } from "@/lib/embeddings/registry";
import { embeddingStatus } from "@/lib/health";
import { percentile } from "@/lib/bench/metrics";
import { freshDatabase } from "./test-db";

/**
 * A server that ingests keeps answering: 2,000 passages embed with the real local:minilm-l6
 * (onnxruntime in its worker thread) while a health endpoint on the same event loop is asked
 * every 100 ms until the last batch is written. The behaviour: answers come within 200 ms. The bound asserted is looser
 * (median under 200 ms, 95th percentile under 1.5 s: a single late answer is the machine, not the design) because a small CI machine's cores may be shared with other
 * work and the database writes of the ingest run on this thread between batches; an encoder
 * on this thread would hold the loop for a whole forward pass of 32 texts (seconds under load)
 * and fail both.
 */

let h: Awaited<ReturnType<typeof freshDatabase>>;
let server: http.Server;
let url: string;
const config = parseConfig({}, process.cwd());

beforeAll(async () => {
  h = await freshDatabase();
  server = http.createServer(async (_req, res) => {
    // What /api/health does: a database round trip and the embedding model's status.
    await h.db.execute(sql`select 1`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ status: "ok", embedding: embeddingStatus(config) }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}, 300_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await h?.close();
});

function* passages(n: number): Generator<SourceRecord> {
  for (let i = 0; i < n; i++) {
    const text = `Report ${i}: the county council said spending on road repairs in district ${i % 37} rose by ${i % 19} percent compared with the year before.`;
    yield { kind: "document", document: { id: `r${i}`, text, passages: [{ id: `r${i}`, text }] } };
  }
}

describe("ingest and the event loop", () => {
  it("answers a health request within 200 ms (median) while 2,000 passages embed", { timeout: 600_000 }, async () => {
    const embedder = miniLmEmbedder("fp32", config);
    await embedder.embed(["load the engine first: its start is not what is measured"]);
    expect(miniLmEngineStatus("local:minilm-l6")?.engine).toBe("onnx-fp32");

    const latencies: number[] = [];
    // Sampled while passages embed: the HNSW index that PGlite builds after the last batch runs on
    // this thread by design (the database is in-process) and is not the encoder's doing.
    let embedding = true;
    const job = ingestRecords(h.db, passages(2000), {
      corpus: "responsive",
      embedder,
      source: "test",
      kind: "records",
      onProgress: (p) => {
        if (p.recordsDone >= 2000) embedding = false;
      },
    }).finally(() => (embedding = false));
    while (embedding) {
      const t = performance.now();
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", embedding: { id: "local:minilm-l6", ready: true } });
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
    const summary = await job;
    expect(summary).toMatchObject({ status: "completed", passagesAdded: 2000 });
    const report = `health answers during the ingest: ${latencies.length}, median ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`;
    console.log(report);
    expect(latencies.length, report).toBeGreaterThanOrEqual(5);
    expect(percentile(latencies, 50), report).toBeLessThan(200);
    expect(percentile(latencies, 95), report).toBeLessThan(1500);
  });
});
