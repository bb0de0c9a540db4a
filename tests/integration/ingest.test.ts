import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "@/db/schema";
import { listCorpora } from "@/db/queries/corpus";
import {
  cancelIngestJob,
  ensureCorpus,
  getIngestJob,
  ingestDataset,
  ingestRecords,
  ingestSample,
  ingestSource,
  IngestError,
  listIngestJobs,
  markOrphanedJobsInterrupted,
  resumeIngestJob,
  startIngest,
} from "@/lib/corpus/ingest";
import { SAMPLE_CLAIMS, SAMPLE_CORPUS_NAME } from "@/lib/corpus/sample";
import type { SourceRecord } from "@/lib/corpus/types";
import { resolveEmbedder } from "@/lib/embeddings/registry";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { tinyPdf } from "../helpers/tiny-pdf";
import { backend, freshDatabase, testDatabaseConfig } from "./test-db";

let h: Awaited<ReturnType<typeof freshDatabase>>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cp-ingest-"));

beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

const embedder = fakeEmbedder();
let n = 0;
const corpusName = () => `c${++n}-${Math.random().toString(36).slice(2, 8)}`;

function writeJsonl(name: string, rows: Array<Record<string, unknown> | string>) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  return file;
}

const docs = (count: number, prefix = "d") =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i}`,
    text: `Document ${i} says the council met on day ${i}. The vote was ${i} to ${count - i}.`,
    title: `Title ${i}`,
  }));

async function corpusState(corpus: string) {
  const [c] = await h.db.select().from(s.corpora).where(eq(s.corpora.name, corpus));
  if (!c) return { documents: [], passages: [], embeddings: 0 };
  const documents = await h.db
    .select({ id: s.documents.externalId, hash: s.documents.contentHash })
    .from(s.documents)
    .where(eq(s.documents.corpusId, c.id))
    .orderBy(s.documents.externalId);
  const passages = await h.db
    .select({ id: s.passages.externalId, text: s.passages.text, start: s.passages.charStart, end: s.passages.charEnd })
    .from(s.passages)
    .where(eq(s.passages.corpusId, c.id))
    .orderBy(s.passages.externalId);
  const [{ count }] = (
    await h.db.execute<{ count: string }>(
      sql`select count(*) as count from passage_embeddings e join passages p on p.id = e.passage_id where p.corpus_id = ${c.id}`,
    )
  ).rows as [{ count: string }];
  return { documents, passages, embeddings: Number(count) };
}

describe(`ingestion on ${backend}`, () => {
  it("ingests JSONL into documents, passages and vectors, copying published_at and creating the model's index", async () => {
    const corpus = corpusName();
    const file = writeJsonl("basic.jsonl", [
      {
        id: "a",
        text: "The mayor opened the bridge. It cost $412 million.",
        title: "Bridge",
        url: "https://example.org/a",
        published_at: "2025-02-18",
        metadata: { section: "local" },
      },
      { id: "b", text: "Short sentence-level record." },
    ]);
    const summary = await ingestSource(h.db, file, { corpus, embedder });
    expect(summary).toMatchObject({
      status: "completed",
      docsAdded: 2,
      passagesAdded: 2,
      errors: 0,
      bytesDone: fs.statSync(file).size,
    });
    const [doc] = await h.db.select().from(s.documents).where(eq(s.documents.externalId, "a"));
    expect(doc).toMatchObject({ title: "Bridge", url: "https://example.org/a", metadata: { section: "local" } });
    const [p] = await h.db.select().from(s.passages).where(eq(s.passages.documentId, doc!.id));
    expect(p).toMatchObject({
      externalId: "a#0",
      ordinal: 0,
      charStart: 0,
      text: "The mayor opened the bridge. It cost $412 million.",
    });
    expect(p!.publishedAt?.toISOString()).toBe("2025-02-18T00:00:00.000Z");
    const [e] = await h.db.select().from(s.passageEmbeddings).where(eq(s.passageEmbeddings.passageId, p!.id));
    expect(e).toMatchObject({ model: embedder.id, dim: 16 });
    const idx = await h.db.execute<{ indexname: string }>(
      sql`select indexname from pg_indexes where tablename = 'passage_embeddings' and indexname like 'passage_embeddings_hnsw_%'`,
    );
    expect(idx.rows.length).toBeGreaterThan(0);
    const job = await getIngestJob(h.db, summary.jobId);
    expect(job).toMatchObject({ status: "completed", kind: "file", docsAdded: 2, recordsDone: 2 });
    expect(job!.finishedAt).toBeInstanceOf(Date);
    expect((await listIngestJobs(h.db, summary.corpusId)).map((j) => j.jobId)).toEqual([summary.jobId]);
    const listed = (await listCorpora(h.db)).find((c) => c.name === corpus);
    expect(listed).toMatchObject({ documents: 2, passages: 2, embeddingModel: embedder.id });
  });

  it("reports a malformed line with its line number and ingests the rest", async () => {
    const corpus = corpusName();
    const file = writeJsonl("malformed.jsonl", [
      { id: "1", text: "First good line." },
      "{not json",
      { id: "3" },
      { id: "4", text: "Fourth line is fine." },
    ]);
    const summary = await ingestSource(h.db, file, { corpus, embedder });
    expect(summary.status).toBe("completed");
    expect(summary.docsAdded).toBe(2);
    expect(summary.errors).toBe(2);
    expect(summary.recentErrors.map((e) => e.line)).toEqual([2, 3]);
    expect(summary.recentErrors[0]!.message).toMatch(/^line 2: not valid JSON/);
    expect(summary.recentErrors[1]!.message).toMatch(/^line 3: field "text"/);
    expect((await corpusState(corpus)).documents.map((d) => d.id)).toEqual(["1", "4"]);
    // The errors are kept with the job, for a page opened later.
    expect((await getIngestJob(h.db, summary.jobId))!.recentErrors).toHaveLength(2);
  });

  it("by default hands short documents to the encoder 256 at a time, and closes a batch of long ones at 512 passages", async () => {
    const sizes: number[] = [];
    const recording = fakeEmbedder({ batchSize: 10_000 });
    const embed = recording.embed.bind(recording);
    recording.embed = async (texts: string[]) => {
      sizes.push(texts.length);
      return embed(texts);
    };
    await ingestSource(h.db, writeJsonl("short.jsonl", docs(600, "s")), { corpus: corpusName(), embedder: recording });
    expect(sizes).toEqual([256, 256, 88]);

    // Three documents of 300 passages each: the cap closes the batch after the second (600 passages).
    sizes.length = 0;
    const sentence = (i: number, j: number) => `Paragraph ${j} of report ${i} lists figure ${j * 7} for the region.`;
    const long = [0, 1, 2].map((i) => ({
      id: `long${i}`,
      text: Array.from({ length: 300 }, (_, j) => sentence(i, j)).join(" "),
    }));
    await ingestSource(h.db, writeJsonl("long.jsonl", long), {
      corpus: corpusName(),
      embedder: recording,
      // One sentence per passage.
      chunking: { maxChars: 100, overlapSentences: 0, minChars: 10 },
    });
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(900);
    expect(sizes).toHaveLength(2);
    expect(sizes[0]).toBeGreaterThanOrEqual(512);
  });

  it("--strict stops at the first bad record and writes nothing of the batch it was in", async () => {
    const corpus = corpusName();
    const rows: Array<Record<string, unknown> | string> = docs(5);
    rows.splice(3, 0, '{"id": "bad", "text": 42}');
    const file = writeJsonl("strict.jsonl", rows);
    let error: unknown;
    try {
      await ingestSource(h.db, file, { corpus, embedder, strict: true, batchSize: 2 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IngestError);
    expect((error as Error).message).toMatch(/line 4/);
    // Lines 1-2 were one committed batch; line 3 shared the failing batch and is not written.
    expect((await corpusState(corpus)).documents.map((d) => d.id)).toEqual(["d0", "d1"]);
    const job = await getIngestJob(h.db, (error as IngestError).summary!.jobId);
    expect(job).toMatchObject({ status: "failed", docsAdded: 2 });
    expect(job!.error).toMatch(/line 4/);
  });

  it("re-ingesting the same file adds nothing; a changed document replaces its passages", async () => {
    const corpus = corpusName();
    const rows = docs(10);
    const file = writeJsonl("again.jsonl", rows);
    const first = await ingestSource(h.db, file, { corpus, embedder, batchSize: 3 });
    expect(first).toMatchObject({ docsAdded: 10, docsUnchanged: 0 });
    const before = await corpusState(corpus);
    const calls = embedder.calls;

    const second = await ingestSource(h.db, file, { corpus, embedder, batchSize: 3 });
    expect(second).toMatchObject({
      docsAdded: 0,
      docsUpdated: 0,
      docsUnchanged: 10,
      passagesAdded: 0,
      passagesRemoved: 0,
    });
    expect(await corpusState(corpus)).toEqual(before);
    expect(embedder.calls).toBe(calls);

    rows[4] = { ...rows[4]!, text: "A rewritten fourth document. It now has different words entirely." };
    const third = await ingestSource(h.db, writeJsonl("again.jsonl", rows), { corpus, embedder, batchSize: 3 });
    expect(third).toMatchObject({
      docsAdded: 0,
      docsUpdated: 1,
      docsUnchanged: 9,
      passagesAdded: 1,
      passagesRemoved: 1,
    });
    const after = await corpusState(corpus);
    expect(after.passages.filter((p) => p.id.startsWith("d4#")).map((p) => p.text)).toEqual([rows[4]!.text]);
    expect(after.passages).toHaveLength(10);
    expect(after.embeddings).toBe(10);
  });

  it("counts empty texts and skips them", async () => {
    const corpus = corpusName();
    const file = writeJsonl("empty.jsonl", [
      { id: "e1", text: "" },
      { id: "e2", text: "   \n " },
      { id: "ok", text: "Something." },
    ]);
    const summary = await ingestSource(h.db, file, { corpus, embedder });
    expect(summary).toMatchObject({ docsAdded: 1, docsSkippedEmpty: 2, errors: 0 });
    expect((await corpusState(corpus)).documents.map((d) => d.id)).toEqual(["ok"]);
  });

  it("refuses an unknown file type and a file over the size limit with the reason", async () => {
    const exe = path.join(tmp, "program.exe");
    fs.writeFileSync(exe, "MZ");
    await expect(ingestSource(h.db, exe, { corpus: corpusName(), embedder })).rejects.toThrow(
      /unknown file type "\.exe"/,
    );
    const big = writeJsonl("big.jsonl", docs(50));
    await expect(
      ingestSource(h.db, big, { corpus: corpusName(), embedder, read: { maxFileBytes: 1000 } }),
    ).rejects.toThrow(/over the 1000 bytes limit/);
  });

  it("says so when a PDF has no text layer, and reads one that has", async () => {
    const scanned = path.join(tmp, "scan.pdf");
    fs.writeFileSync(scanned, tinyPdf());
    const corpus = corpusName();
    await expect(ingestSource(h.db, scanned, { corpus, embedder })).rejects.toThrow(/no text layer/);
    const text = path.join(tmp, "report.pdf");
    fs.writeFileSync(text, tinyPdf("The bridge toll for cars is 3.50 dollars."));
    const summary = await ingestSource(h.db, text, { corpus, embedder });
    expect(summary.docsAdded).toBe(1);
    expect((await corpusState(corpus)).passages[0]!.text).toMatch(/bridge toll for cars/);
  });

  it("walks a folder: every format, hidden files skipped, refused files reported while the rest goes in", async () => {
    const dir = fs.mkdtempSync(path.join(tmp, "folder-"));
    fs.mkdirSync(path.join(dir, "sub"));
    fs.writeFileSync(path.join(dir, "a.md"), "# Harbour report\n\nThe harbour festival drew 45,000 people.");
    fs.writeFileSync(
      path.join(dir, "sub", "b.html"),
      "<html><head><title>Ferry ends</title></head><body><p>The ferry stops in June.</p></body></html>",
    );
    fs.writeFileSync(path.join(dir, "c.txt"), "Plain text note about water rates.");
    fs.writeFileSync(path.join(dir, "d.csv"), "id,text,title\nrow1,CSV row about wind farms.,Wind\n");
    fs.writeFileSync(path.join(dir, "e.pdf"), tinyPdf("A PDF about the levee."));
    fs.writeFileSync(path.join(dir, "f.png"), "not really an image");
    fs.writeFileSync(path.join(dir, ".hidden.md"), "# Secret");
    const corpus = corpusName();
    const summary = await ingestSource(h.db, dir, { corpus, embedder });
    expect(summary.docsAdded).toBe(5);
    expect(summary.errors).toBe(1);
    expect(summary.recentErrors[0]!.message).toMatch(/f\.png: refused: unknown file type/);
    const titles = await h.db
      .select({ id: s.documents.externalId, title: s.documents.title })
      .from(s.documents)
      .innerJoin(s.corpora, eq(s.corpora.id, s.documents.corpusId))
      .where(eq(s.corpora.name, corpus))
      .orderBy(s.documents.externalId);
    expect(titles).toEqual([
      { id: "a.md", title: "Harbour report" },
      { id: "c.txt", title: null },
      { id: "e.pdf", title: null },
      { id: "row1", title: "Wind" },
      { id: "sub/b.html", title: "Ferry ends" },
    ]);
  });

  it("resumes a crashed run from its last committed batch, ending in the same state as a clean run", async () => {
    const rows = docs(23, "r");
    const file = writeJsonl("resume.jsonl", rows);
    const clean = corpusName();
    await ingestSource(h.db, file, { corpus: clean, embedder, batchSize: 5 });

    const corpus = corpusName();
    // One embedding call per batch (batch of 5 docs x 1 passage < batchSize 8): dies on batch 3.
    const crashing = fakeEmbedder({ failAfter: 2 });
    const failed = await ingestSource(h.db, file, { corpus, embedder: crashing, batchSize: 5 }).catch(
      (e: IngestError) => e,
    );
    expect(failed).toBeInstanceOf(IngestError);
    const jobId = (failed as IngestError).summary!.jobId;
    const stopped = await getIngestJob(h.db, jobId);
    expect(stopped).toMatchObject({ status: "failed", docsAdded: 10, recordsDone: 10 });
    expect(stopped!.resume).toMatchObject({ recordsCommitted: 10, lineCommitted: 10 });
    expect((await corpusState(corpus)).documents).toHaveLength(10);

    const resumed = await resumeIngestJob(h.db, jobId, { embedder: fakeEmbedder() });
    expect(resumed).toMatchObject({
      jobId,
      status: "completed",
      docsAdded: 23,
      docsUnchanged: 0,
      recordsDone: 23,
      bytesDone: fs.statSync(file).size,
    });
    const a = await corpusState(clean);
    const b = await corpusState(corpus);
    expect(b).toEqual(a);
    expect(b.passages).toHaveLength(23);
  });

  it("marks a dead process's running job interrupted and resumes it, but not a live one", async () => {
    const rows = docs(12, "o");
    const file = writeJsonl("orphan.jsonl", rows);
    const corpus = corpusName();
    // A run that "dies" after its first batch: cancelled by its signal, then made to look like a
    // process that stopped while running (status running, old heartbeat, another runner).
    const controller = new AbortController();
    const first = await ingestSource(h.db, file, {
      corpus,
      embedder,
      batchSize: 4,
      signal: controller.signal,
      runnerId: "dead-runner",
      onProgress: (p) => p.docsAdded >= 4 && controller.abort(),
    });
    await h.db
      .update(s.ingestJobs)
      .set({ status: "running", heartbeatAt: new Date(Date.now() - 10 * 60_000), finishedAt: null })
      .where(eq(s.ingestJobs.id, first.jobId));
    const live = await ingestRecords(h.db, [], {
      corpus,
      embedder,
      source: "live",
      kind: "records",
      runnerId: "other-live",
    });
    await h.db
      .update(s.ingestJobs)
      .set({ status: "running", heartbeatAt: new Date() })
      .where(eq(s.ingestJobs.id, live.jobId));

    expect(await markOrphanedJobsInterrupted(h.db, "new-runner")).toBeGreaterThanOrEqual(1);
    expect((await getIngestJob(h.db, first.jobId))!.status).toBe("interrupted");
    expect((await getIngestJob(h.db, live.jobId))!.status).toBe("running");
    await expect(resumeIngestJob(h.db, live.jobId, { embedder })).rejects.toThrow(/records its caller supplied/);

    const done = await resumeIngestJob(h.db, first.jobId, { embedder, runnerId: "new-runner" });
    expect(done).toMatchObject({ status: "completed", docsAdded: 12 });
    expect((await corpusState(corpus)).documents).toHaveLength(12);
    await h.db.update(s.ingestJobs).set({ status: "completed" }).where(eq(s.ingestJobs.id, live.jobId));
  });

  it("refuses to resume when the file changed since the job started", async () => {
    const file = writeJsonl("changing.jsonl", docs(6, "x"));
    const corpus = corpusName();
    const failed = await ingestSource(h.db, file, {
      corpus,
      embedder: fakeEmbedder({ failAfter: 1 }),
      batchSize: 3,
    }).catch((e: IngestError) => e);
    writeJsonl("changing.jsonl", docs(7, "y"));
    await expect(resumeIngestJob(h.db, (failed as IngestError).summary!.jobId, { embedder })).rejects.toThrow(
      /changed since/,
    );
  });

  it("cancellation keeps the committed batches and marks the job cancelled", async () => {
    const corpus = corpusName();
    const file = writeJsonl("cancel.jsonl", docs(20, "k"));
    const controller = new AbortController();
    const summary = await ingestSource(h.db, file, {
      corpus,
      embedder,
      batchSize: 5,
      signal: controller.signal,
      onProgress: (p) => p.docsAdded >= 10 && controller.abort(),
    });
    expect(summary.status).toBe("cancelled");
    expect((await corpusState(corpus)).documents).toHaveLength(10);
    expect((await getIngestJob(h.db, summary.jobId))!.status).toBe("cancelled");
  });

  it("a Resume pressed while the cancelled run is still embedding its batch continues the job to the end, counting nothing twice", async () => {
    const corpus = corpusName();
    const file = writeJsonl("wind-down.jsonl", docs(30, "wd"));
    // The batch in flight when the cancel arrives takes a second more to embed, so the cancelled run
    // is still winding down when Resume is pressed.
    let stall: Promise<unknown> | undefined;
    const slow = {
      ...embedder,
      embed: async (texts: string[]) => (
        await new Promise((r) => setTimeout(r, 50)), await stall, embedder.embed(texts)
      ),
    };
    let jobId = "";
    let resumed: Promise<Awaited<ReturnType<typeof resumeIngestJob>>> | undefined;
    const started = await startIngest(h.db, file, {
      corpus,
      embedder: slow,
      batchSize: 5,
      onProgress: (p) => {
        if (!resumed && p.docsAdded >= 5 && p.status === "running") {
          stall = new Promise((r) => setTimeout(r, 1500));
          resumed = cancelIngestJob(h.db, jobId).then(() => resumeIngestJob(h.db, jobId, { embedder: slow }));
        }
      },
    });
    jobId = started.jobId;
    await started.done;
    const summary = await resumed!;
    expect(summary.status).toBe("completed");
    const row = await getIngestJob(h.db, jobId);
    expect(row!.status).toBe("completed");
    expect(row!.docsAdded).toBe(30);
    expect((await corpusState(corpus)).documents).toHaveLength(30);
  });

  it("starts a job in the background; a cancel by id stops it; its progress is read back from the row", async () => {
    const corpus = corpusName();
    const file = writeJsonl("background.jsonl", docs(30, "bg"));
    const seen: number[] = [];
    let jobId = "";
    const started = await startIngest(h.db, file, {
      corpus,
      embedder,
      batchSize: 5,
      onProgress: (p) => {
        seen.push(p.bytesDone);
        if (p.docsAdded >= 10 && p.status === "running") void cancelIngestJob(h.db, jobId);
      },
    });
    jobId = started.jobId;
    const summary = await started.done;
    expect(summary.status).toBe("cancelled");
    const row = await getIngestJob(h.db, jobId);
    expect(row!.status).toBe("cancelled");
    expect(row!.docsAdded).toBeGreaterThanOrEqual(10);
    expect(row!.docsAdded).toBeLessThan(30);
    expect(row!.bytesTotal).toBe(fs.statSync(file).size);
    expect(row!.bytesDone).toBeGreaterThan(0);
    // Progress only moves forward.
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
  });

  it("the same id twice in one batch: the later version wins", async () => {
    const corpus = corpusName();
    const records: SourceRecord[] = [
      { kind: "document", document: { id: "dup", text: "First version." } },
      { kind: "document", document: { id: "dup", text: "Second version." } },
    ];
    const summary = await ingestRecords(h.db, records, { corpus, embedder, source: "test", kind: "records" });
    expect(summary).toMatchObject({ docsAdded: 1, docsUpdated: 1 });
    expect((await corpusState(corpus)).passages.map((p) => p.text)).toEqual(["Second version."]);
  });

  it("keeps one embedding model per corpus", async () => {
    const corpus = corpusName();
    await ingestRecords(h.db, [{ kind: "document", document: { id: "1", text: "Text." } }], {
      corpus,
      embedder,
      source: "t",
      kind: "records",
    });
    await expect(ensureCorpus(h.db, corpus, { embeddingModel: "test:other" })).rejects.toThrow(
      /embedded with test:hash-16/,
    );
  });

  it("loads the sample corpus, which holds the missing context of its half-truth", async () => {
    const summary = await ingestSample(h.db, { embedder });
    expect(summary.status).toBe("completed");
    expect(summary.docsAdded).toBeGreaterThanOrEqual(24);
    expect(summary.errors).toBe(0);
    const state = await corpusState(SAMPLE_CORPUS_NAME);
    expect(state.passages.length).toBeGreaterThanOrEqual(24);
    expect(state.passages.some((p) => /2019/.test(p.text) && /auction/.test(p.text))).toBe(true);
    expect(SAMPLE_CLAIMS.some((c) => c.label === "HALF-TRUE")).toBe(true);
    const [c] = await h.db.select().from(s.corpora).where(eq(s.corpora.name, SAMPLE_CORPUS_NAME));
    expect(c!.description).toMatch(/fictional/i);
    expect((await ingestSample(h.db, { embedder })).docsUnchanged).toBe(summary.docsAdded);
  });

  it("imports PolitiFact-Hidden's corpus keeping sentence ids, and Check-COVID's with <cord_id>:<index> ids", async () => {
    const pf = fs.mkdtempSync(path.join(tmp, "pf-"));
    fs.writeFileSync(
      path.join(pf, "corpus_partial.jsonl"),
      [
        { id: 0, text: "Gas prices were higher in 2008." },
        { id: 17, text: "The claim omits inflation." },
        { id: 42, text: "" },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const pfSummary = await ingestDataset(h.db, "politifact-hidden", pf, { embedder, corpus: corpusName() });
    expect(pfSummary).toMatchObject({ docsAdded: 2, docsSkippedEmpty: 1, passagesAdded: 2 });
    const [{ corpusId }] = [pfSummary];
    const pfPassages = await h.db
      .select({ id: s.passages.externalId })
      .from(s.passages)
      .where(eq(s.passages.corpusId, corpusId))
      .orderBy(s.passages.externalId);
    expect(pfPassages.map((p) => p.id)).toEqual(["0", "17"]);

    const cc = fs.mkdtempSync(path.join(tmp, "cc-"));
    fs.writeFileSync(
      path.join(cc, "corpus.json"),
      JSON.stringify({
        cord_id: "abc123",
        title: "Saliva tests",
        abstract: ["Saliva works.", "", "Sensitivity was 97%."],
      }) + "\n",
    );
    const ccSummary = await ingestDataset(h.db, "check-covid", cc, { embedder, corpus: corpusName() });
    expect(ccSummary).toMatchObject({ docsAdded: 1, passagesAdded: 2 });
    const ccPassages = await h.db
      .select({ id: s.passages.externalId, start: s.passages.charStart, text: s.passages.text })
      .from(s.passages)
      .where(eq(s.passages.corpusId, ccSummary.corpusId))
      .orderBy(s.passages.ordinal);
    expect(ccPassages.map((p) => p.id)).toEqual(["abc123:0", "abc123:2"]);
    expect(ccPassages[1]!.start).toBe("Saliva works.  ".length);
    const job = await getIngestJob(h.db, ccSummary.jobId);
    expect(job!.kind).toBe("dataset:check-covid");
  });

  it("embeds with the real local:use-lite model", async () => {
    const real = resolveEmbedder("local:use-lite");
    const corpus = corpusName();
    const summary = await ingestRecords(
      h.db,
      [
        {
          kind: "document",
          document: { id: "1", text: "The bridge toll for passenger cars is three dollars and fifty cents." },
        },
        { kind: "document", document: { id: "2", text: "The library reopened after a long renovation." } },
      ],
      { corpus, embedder: real, source: "t", kind: "records" },
    );
    expect(summary.passagesAdded).toBe(2);
    const rows = await h.db
      .select({
        model: s.passageEmbeddings.model,
        dim: s.passageEmbeddings.dim,
        embedding: s.passageEmbeddings.embedding,
      })
      .from(s.passageEmbeddings)
      .innerJoin(s.passages, eq(s.passages.id, s.passageEmbeddings.passageId))
      .where(and(eq(s.passages.corpusId, summary.corpusId)));
    expect(rows.map((r) => [r.model, r.dim, r.embedding.length])).toEqual([
      ["local:use-lite", 512, 512],
      ["local:use-lite", 512, 512],
    ]);
  });
});

/** Runs `counterpoint` as a user would. */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.resolve(import.meta.dirname, "../../bin/counterpoint.mjs"), ...args], {
      cwd: tmp,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", ...env } as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe(`counterpoint ingest on ${backend}`, () => {
  let env: Record<string, string>;
  beforeAll(() => {
    const db = testDatabaseConfig();
    // The CLI is its own process: on PGlite it needs its own data directory.
    env = db.backend === "postgres" ? { DATABASE_URL: db.url } : { DATA_DIR: db.dataDir };
  });

  it("ingests a file, reports bad lines with their numbers as JSON, and lists the corpus", async () => {
    const file = writeJsonl("cli.jsonl", [
      { id: "1", text: "The ferry stops running in June." },
      "oops",
      { id: "3", text: "" },
    ]);
    const r = await cli(["ingest", file, "--corpus", "cli-corpus", "--json"], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ status: "completed", docsAdded: 1, docsSkippedEmpty: 1, errors: 1 });
    expect(out.recentErrors[0]).toMatchObject({ line: 2 });
    const list = await cli(["corpus", "list", "--json"], env);
    expect(JSON.parse(list.stdout).find((c: { name: string }) => c.name === "cli-corpus")).toMatchObject({
      documents: 1,
      passages: 1,
      embeddingModel: "local:minilm-l6",
    });
  });

  it("fails with the reason on a refused file, and with --strict on a bad line", async () => {
    const r = await cli(["ingest", path.join(tmp, "program.exe"), "--corpus", "x"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown file type/);
    const bad = writeJsonl("cli-strict.jsonl", ["nope"]);
    const s2 = await cli(["ingest", bad, "--corpus", "x", "--strict"], env);
    expect(s2.code).toBe(1);
    expect(s2.stderr).toMatch(/line 1/);
  });
});
