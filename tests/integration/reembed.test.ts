import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "@/db/schema";
import { listCorpora } from "@/db/queries/corpus";
import {
  getIngestJob,
  ingestRecords,
  IngestError,
  markOrphanedJobsInterrupted,
  resumeIngestJob,
} from "@/lib/corpus/ingest";
import { reembedCorpus, startReembed } from "@/lib/corpus/reembed";
import { getConfig } from "@/lib/config";
import { resolveEmbedder } from "@/lib/embeddings/registry";
import { search, SearchError } from "@/lib/retrieval/search";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { backend, freshDatabase } from "./test-db";

let h: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

const docs = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({
    kind: "document" as const,
    document: {
      id: `${prefix}${i}`,
      text: `Document ${i} says the harbour council met on day ${i} and voted on the ferry budget.`,
    },
  }));

async function vectorModels(corpus: string) {
  return (await listCorpora(h.db)).find((c) => c.name === corpus)!.vectorModels;
}

async function corpusModel(corpus: string) {
  const [c] = await h.db.select().from(s.corpora).where(eq(s.corpora.name, corpus));
  return c!.embeddingModel;
}

describe(`re-embedding on ${backend}`, () => {
  // First in the file, while the database holds only this corpus.
  it("a corpus embedded with use-lite before minilm became the default still searches and ingests with use-lite", async () => {
    expect(getConfig().embeddingModel).toBe("local:minilm-l6");
    const useLite = resolveEmbedder("local:use-lite");
    await ingestRecords(h.db, docs(3, "u"), { corpus: "old-default", embedder: useLite, source: "t", kind: "records" });
    // No corpus named and no embedder given: the query must be embedded with the corpora's model, not the new default.
    const res = await search(h.db, { text: "ferry budget vote", mode: "dense", k: 3 });
    expect(res.model).toBe("local:use-lite");
    expect(res.hits).toHaveLength(3);
    // An ingest without an explicit model keeps the corpus's model instead of refusing.
    const more = await ingestRecords(h.db, docs(1, "v"), { corpus: "old-default", source: "t2", kind: "records" });
    expect(more.status).toBe("completed");
    expect(await vectorModels("old-default")).toEqual([{ model: "local:use-lite", passages: 4 }]);
  });

  it("re-embeds a corpus to another model as a resumable job; the corpus then lists both models and searches with the new one", async () => {
    const from = fakeEmbedder({ id: "test:hash-16", dim: 16 });
    await ingestRecords(h.db, docs(23, "r"), { corpus: "re", embedder: from, source: "t", kind: "records" });

    // Dies on the third batch of five passages: ten passages got the new vector.
    const crashing = fakeEmbedder({ id: "test:hash-24", dim: 24, failAfter: 2 });
    const failed = await reembedCorpus(h.db, "re", { embedder: crashing, batchSize: 5 }).catch((e: IngestError) => e);
    expect(failed).toBeInstanceOf(IngestError);
    const jobId = (failed as IngestError).summary!.jobId;
    expect(await getIngestJob(h.db, jobId)).toMatchObject({
      kind: "reembed",
      source: "test:hash-24",
      status: "failed",
      recordsDone: 10,
      bytesTotal: 23,
      bytesDone: 10,
    });
    // Half done: the corpus still searches with its complete old vectors.
    expect(await corpusModel("re")).toBe("test:hash-16");
    expect(await vectorModels("re")).toEqual([
      { model: "test:hash-16", passages: 23 },
      { model: "test:hash-24", passages: 10 },
    ]);

    const to = fakeEmbedder({ id: "test:hash-24", dim: 24, batchSize: 5 });
    const done = await resumeIngestJob(h.db, jobId, { embedder: to });
    expect(done).toMatchObject({ jobId, status: "completed", recordsDone: 23, bytesDone: 23 });
    expect(to.calls).toBe(3); // only the 13 passages left, in batches of five
    expect(await corpusModel("re")).toBe("test:hash-24");
    expect(await vectorModels("re")).toEqual([
      { model: "test:hash-16", passages: 23 },
      { model: "test:hash-24", passages: 23 },
    ]);
    const res = await search(h.db, { text: "harbour council day 7", corpus: "re", mode: "dense", k: 5, embedder: to });
    expect(res.hits).toHaveLength(5);
    expect(res.hits.every((x) => x.dense !== null)).toBe(true);

    // Switching back finds every old vector in place: nothing to embed, and the job says so.
    const back = fakeEmbedder({ id: "test:hash-16", dim: 16 });
    const again = await reembedCorpus(h.db, "re", { embedder: back });
    expect(again).toMatchObject({ status: "completed", recordsDone: 0, bytesDone: 23, bytesTotal: 23 });
    expect(back.calls).toBe(0);
    expect(await getIngestJob(h.db, again.jobId)).toMatchObject({ bytesDone: 23, bytesTotal: 23 });
    expect(await corpusModel("re")).toBe("test:hash-16");
  });

  it("resumes a re-embed whose process died mid-run, under a new runner", async () => {
    const from = fakeEmbedder({ id: "test:hash-16", dim: 16 });
    await ingestRecords(h.db, docs(12, "o"), { corpus: "orphan", embedder: from, source: "t", kind: "records" });
    const controller = new AbortController();
    const first = await reembedCorpus(h.db, "orphan", {
      embedder: fakeEmbedder({ id: "test:hash-24", dim: 24 }),
      batchSize: 4,
      signal: controller.signal,
      runnerId: "dead-runner",
      onProgress: (p) => p.recordsDone >= 4 && controller.abort(),
    });
    expect(first.status).toBe("cancelled");
    await h.db
      .update(s.ingestJobs)
      .set({ status: "running", heartbeatAt: new Date(Date.now() - 10 * 60_000), finishedAt: null })
      .where(eq(s.ingestJobs.id, first.jobId));
    expect(await markOrphanedJobsInterrupted(h.db, "new-runner")).toBeGreaterThanOrEqual(1);
    expect(await getIngestJob(h.db, first.jobId)).toMatchObject({ status: "interrupted", recordsDone: 4 });

    const done = await resumeIngestJob(h.db, first.jobId, {
      embedder: fakeEmbedder({ id: "test:hash-24", dim: 24 }),
      runnerId: "new-runner",
    });
    expect(done).toMatchObject({ status: "completed", recordsDone: 12 });
    expect(await corpusModel("orphan")).toBe("test:hash-24");
  });

  it("keeps one job at a time per corpus, and names an unknown model", async () => {
    await ingestRecords(h.db, docs(3, "b"), { corpus: "busy", embedder: fakeEmbedder(), source: "t", kind: "records" });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = fakeEmbedder({ id: "test:hash-24", dim: 24 });
    const inner = slow.embed.bind(slow);
    slow.embed = async (texts: string[]) => {
      await gate;
      return inner(texts);
    };
    const { jobId, done } = await startReembed(h.db, "busy", { embedder: slow });
    await expect(
      ingestRecords(h.db, docs(1, "late"), { corpus: "busy", embedder: fakeEmbedder(), source: "t", kind: "records" }),
    ).rejects.toThrow(/being re-embedded with test:hash-24/);
    await expect(
      reembedCorpus(h.db, "busy", { embedder: fakeEmbedder({ id: "test:hash-32", dim: 32 }) }),
    ).rejects.toThrow(new RegExp(`running re-embed .*${jobId}`));
    release();
    expect((await done).status).toBe("completed");
    await expect(reembedCorpus(h.db, "busy", { model: "local:bge-base" })).rejects.toThrow(
      /available: local:minilm-l6, (.*, )?local:use-lite/,
    );
    await expect(reembedCorpus(h.db, "nope", { model: "local:minilm-l6" })).rejects.toThrow(/no corpus named "nope"/);
  });

  it("a search of all corpora whose models differ says which to re-embed instead of returning nothing", async () => {
    const err = await search(h.db, { text: "ferry budget", mode: "dense" }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(SearchError);
    expect((err as Error).message).toMatch(/old-default \(local:use-lite\)/);
    expect((err as Error).message).toMatch(/corpus reembed --corpus <name> --model local:minilm-l6/);
    // Lexical search needs no vectors and still covers every corpus.
    const lexical = await search(h.db, { text: "ferry budget", mode: "lexical", k: 100 });
    expect(new Set(lexical.hits.map((x) => x.corpus.name))).toEqual(new Set(["old-default", "re", "orphan", "busy"]));
    const total = await h.db.execute<{ n: string }>(sql`select count(*) as n from passages`);
    expect(Number(total.rows[0]!.n)).toBe(4 + 23 + 12 + 3);
  });
});
