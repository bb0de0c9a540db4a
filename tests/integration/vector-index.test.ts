import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { canDeferVectorIndex, vectorIndexExists } from "@/db/queries/vector-index";
import { ingestRecords } from "@/lib/corpus/ingest";
import type { SourceRecord } from "@/lib/corpus/types";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

const docs = (prefix: string, n: number): SourceRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    kind: "document",
    document: { id: `${prefix}-${i}`, text: `Passage ${i} about ${prefix} and its figures for ${2000 + i}.` },
  }));

describe("the HNSW index of an embedding model", () => {
  it("is built after a model's first load rather than row by row, and kept current afterwards", async () => {
    const embedder = fakeEmbedder({ id: "test:deferred", dim: 8 });
    expect(await canDeferVectorIndex(h.db, embedder.id)).toBe(true);
    const first = await ingestRecords(h.db, docs("a", 40), {
      corpus: "first",
      embedder,
      source: "t",
      kind: "records",
      batchSize: 8,
    });
    expect(first.status).toBe("completed");
    expect(await vectorIndexExists(h.db, embedder.id)).toBe(true);
    // Vectors now exist: a second load (any corpus) must not drop or defer the index.
    expect(await canDeferVectorIndex(h.db, embedder.id)).toBe(false);
    const second = await ingestRecords(h.db, docs("b", 10), {
      corpus: "second",
      embedder,
      source: "t",
      kind: "records",
    });
    expect(second.passagesAdded).toBe(10);
    expect(await vectorIndexExists(h.db, embedder.id)).toBe(true);
  });

  it("is still built when a first load fails half-way", async () => {
    const embedder = fakeEmbedder({ id: "test:failing", dim: 8, failAfter: 2 });
    await expect(
      ingestRecords(h.db, docs("c", 40), { corpus: "third", embedder, source: "t", kind: "records", batchSize: 8 }),
    ).rejects.toThrow();
    expect(await vectorIndexExists(h.db, embedder.id)).toBe(true);
  });
});
