import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findCorpus } from "@/db/queries/corpus";
import { getDocument, listDocuments } from "@/db/queries/corpus-browse";
import { getIngestJob, ingestRecords, startIngest } from "@/lib/corpus/ingest";
import { toJobView, describeErrors } from "@/lib/corpus/job-view";
import { removeUploadWhenCompleted, saveUpload } from "@/lib/corpus/upload";
import type { SourceRecord } from "@/lib/corpus/types";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { backend, freshDatabase } from "./test-db";

let h: Awaited<ReturnType<typeof freshDatabase>>;
const embedder = fakeEmbedder();

beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

const doc = (i: number, sentences = 1): SourceRecord => ({
  kind: "document",
  document: {
    id: `doc-${i}`,
    title: i % 2 ? `Title ${i}` : undefined,
    publishedAt: i % 3 ? new Date(Date.UTC(2024, 0, i)) : undefined,
    text: Array.from(
      { length: sentences },
      (_, s) =>
        `Sentence ${s} of document ${i} is about the harbour budget and nothing else at all, repeated for length.`,
    ).join(" "),
  },
});

describe(`corpus browsing on ${backend}`, () => {
  it("lists documents newest first, page by page, with their passage counts", async () => {
    await ingestRecords(h.db, [doc(1), doc(2), doc(3)], {
      corpus: "browse",
      embedder,
      source: "first",
      kind: "records",
    });
    // A later ingest: its documents come first although their ids sort after.
    await new Promise((r) => setTimeout(r, 20));
    await ingestRecords(h.db, [doc(4, 30), doc(5)], {
      corpus: "browse",
      embedder,
      source: "second",
      kind: "records",
      chunking: { maxChars: 300 },
    });
    const corpus = (await findCorpus(h.db, "browse"))!;
    const first = await listDocuments(h.db, corpus.id, { page: 1, pageSize: 2 });
    expect(first.total).toBe(5);
    expect(first.items.map((d) => d.externalId)).toEqual(["doc-5", "doc-4"]);
    expect(first.items[1]!.passages).toBeGreaterThan(3);
    expect(first.items[0]).toMatchObject({ passages: 1, title: "Title 5", url: null });
    const third = await listDocuments(h.db, corpus.id, { page: 3, pageSize: 2 });
    expect(third.items.map((d) => d.externalId)).toEqual(["doc-1"]);
    expect(third.items[0]!.publishedAt?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect((await listDocuments(h.db, corpus.id, { page: 9, pageSize: 2 })).items).toEqual([]);
    // Nonsense pages are read as the first.
    expect((await listDocuments(h.db, corpus.id, { page: -3, pageSize: 2 })).items[0]!.externalId).toBe("doc-5");
  });

  it("reads a document with all its passages in order, only within its own corpus", async () => {
    const corpus = (await findCorpus(h.db, "browse"))!;
    const [item] = (await listDocuments(h.db, corpus.id)).items.filter((d) => d.externalId === "doc-4");
    const d = (await getDocument(h.db, corpus.id, item!.id))!;
    expect(d.passages.map((p) => p.ordinal)).toEqual(d.passages.map((_, i) => i));
    expect(d.passages[0]!.text).toMatch(/^Sentence 0 of document 4/);
    expect(d.passages.map((p) => p.externalId)).toContain("doc-4#1");
    await ingestRecords(h.db, [doc(9)], { corpus: "other", embedder, source: "x", kind: "records" });
    const other = (await findCorpus(h.db, "other"))!;
    expect(await getDocument(h.db, other.id, item!.id)).toBeUndefined();
    expect(await getDocument(h.db, corpus.id, 987654321)).toBeUndefined();
    expect(await getDocument(h.db, corpus.id, Number.NaN)).toBeUndefined();
  });

  it("ingests a streamed upload as a job that reports its bad line, then removes the stored file", async () => {
    const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-uploads-"));
    const lines = [
      JSON.stringify({ id: "u1", text: "The ferry stops in June." }),
      "{not json",
      JSON.stringify({ id: "u2", text: "The bridge opened in February." }),
    ];
    const body = (async function* () {
      for (const l of lines) yield new TextEncoder().encode(`${l}\n`);
    })();
    const saved = await saveUpload(body, { uploadsDir, fileName: "up.jsonl" });
    const { jobId, done } = await startIngest(h.db, saved.file, { corpus: "uploads", embedder });
    removeUploadWhenCompleted(uploadsDir, saved.file, done);
    const summary = await done;
    expect(summary).toMatchObject({ status: "completed", docsAdded: 2, errors: 1 });
    const view = toJobView((await getIngestJob(h.db, jobId))!);
    expect(view).toMatchObject({
      label: "up.jsonl",
      bytesTotal: saved.bytes,
      bytesDone: saved.bytes,
      status: "completed",
    });
    expect(describeErrors(view)).toBe("1 error, line 2");
    // The removal runs after `done` settles, on its own schedule: wait for it (a loaded machine is slow), never forever.
    await vi.waitFor(() => expect(fs.readdirSync(uploadsDir)).toEqual([]), { timeout: 5_000, interval: 20 });
  });

  it("never removes files outside the uploads folder", async () => {
    const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-uploads-"));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "cp-outside-"));
    const file = path.join(outside, "keep.txt");
    fs.writeFileSync(file, "keep me");
    removeUploadWhenCompleted(uploadsDir, file, Promise.resolve({ status: "completed" } as never));
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(file)).toBe(true);
  });
});
