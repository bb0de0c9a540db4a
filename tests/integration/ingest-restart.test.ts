import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "@/db/schema";
import {
  getIngestJob,
  ingestSource,
  listIngestJobs,
  markOrphanedJobsInterrupted,
  resumeIngestJob,
  startIngest,
} from "@/lib/corpus/ingest";
import { toJobView } from "@/lib/corpus/job-view";
import { removeUploadWhenCompleted, saveUpload } from "@/lib/corpus/upload";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

let h: Awaited<ReturnType<typeof freshDatabase>>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cp-ingest-restart-"));
const embedder = fakeEmbedder();
let n = 0;
const corpusName = () => `j${++n}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

function writeJsonl(name: string, count: number) {
  const file = path.join(tmp, name);
  fs.writeFileSync(
    file,
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({ id: `d${i}`, text: `Document ${i} says the ferry ran on day ${i}.` }),
    ).join("\n") + "\n",
  );
  return file;
}

/** A pid that existed a moment ago and is gone now: what a killed server leaves behind. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

/** A job that a process stopped in the middle of, its heartbeat still fresh (the restart was quick). */
async function jobLeftRunningBy(runnerId: string) {
  const corpus = corpusName();
  const file = writeJsonl(`${corpus}.jsonl`, 12);
  const controller = new AbortController();
  const first = await ingestSource(h.db, file, {
    corpus,
    embedder,
    batchSize: 4,
    signal: controller.signal,
    runnerId,
    onProgress: (p) => p.docsAdded >= 4 && controller.abort(),
  });
  await h.db
    .update(s.ingestJobs)
    .set({ status: "running", heartbeatAt: new Date(), finishedAt: null, error: null })
    .where(eq(s.ingestJobs.id, first.jobId));
  return first.jobId;
}

describe("after a restart", () => {
  it("recognises jobs of a dead process at once and resumes them immediately", async () => {
    const jobId = await jobLeftRunningBy(`${os.hostname()}:${deadPid()}:0a1b2c3d`);
    expect(await markOrphanedJobsInterrupted(h.db)).toBeGreaterThanOrEqual(1);
    const job = (await getIngestJob(h.db, jobId))!;
    expect(job.status).toBe("interrupted");
    expect(job.error).toMatch(/process running this job stopped/);
    expect(toJobView(job).resumable).toBe(true);
    await expect(resumeIngestJob(h.db, jobId, { embedder })).resolves.toMatchObject({
      status: "completed",
      docsAdded: 12,
    });
  });

  it("treats this process's own pid under an earlier id as a previous life (a container restarts as the same pid)", async () => {
    const jobId = await jobLeftRunningBy(`${os.hostname()}:${process.pid}:deadbeef`);
    // Resumed straight away, without the startup sweep: the claim itself sees the runner is gone.
    await expect(resumeIngestJob(h.db, jobId, { embedder })).resolves.toMatchObject({
      status: "completed",
      docsAdded: 12,
    });
  });

  it("leaves a job of a live process alone", async () => {
    const jobId = await jobLeftRunningBy(`${os.hostname()}:${process.ppid}:0a1b2c3d`);
    await markOrphanedJobsInterrupted(h.db);
    expect((await getIngestJob(h.db, jobId))!.status).toBe("running");
    await expect(resumeIngestJob(h.db, jobId, { embedder })).rejects.toThrow(/still running in another process/);
    await h.db.update(s.ingestJobs).set({ status: "cancelled" }).where(eq(s.ingestJobs.id, jobId));
  });

  it("shows a job whose process is gone as interrupted on the corpus page, without waiting for a restart", async () => {
    const jobId = await jobLeftRunningBy(`${os.hostname()}:${deadPid()}:0a1b2c3d`);
    const [row] = await h.db.select().from(s.ingestJobs).where(eq(s.ingestJobs.id, jobId));
    const listed = (await listIngestJobs(h.db, row!.corpusId)).find((j) => j.jobId === jobId)!;
    expect(listed.status).toBe("interrupted");
  });
});

describe("a job that failed because of its file", () => {
  it("offers no Resume, refuses one with the reason, and removes the upload", async () => {
    const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-uploads-"));
    const binary = Buffer.alloc(2048, 0);
    const body = (async function* () {
      yield new Uint8Array(binary);
    })();
    const saved = await saveUpload(body, { uploadsDir, fileName: "scan.txt" });
    const { jobId, done } = await startIngest(h.db, saved.file, { corpus: corpusName(), embedder });
    await removeUploadWhenCompleted(uploadsDir, saved.file, done);
    const job = (await getIngestJob(h.db, jobId))!;
    expect(job.status).toBe("failed");
    expect(toJobView(job).resumable).toBe(false);
    await expect(resumeIngestJob(h.db, jobId, { embedder })).rejects.toThrow(
      /because of its source .*binary file.*ingest it again/,
    );
    expect(fs.readdirSync(uploadsDir)).toEqual([]);
  });

  it("keeps the upload and offers Resume when the failure was not the file's (the embedding model crashed)", async () => {
    const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-uploads-"));
    const body = (async function* () {
      yield new Uint8Array(fs.readFileSync(writeJsonl("ok.jsonl", 10)));
    })();
    const saved = await saveUpload(body, { uploadsDir, fileName: "ok.jsonl" });
    const { jobId, done } = await startIngest(h.db, saved.file, {
      corpus: corpusName(),
      embedder: fakeEmbedder({ failAfter: 1 }),
      batchSize: 4,
    });
    await removeUploadWhenCompleted(uploadsDir, saved.file, done);
    const job = (await getIngestJob(h.db, jobId))!;
    expect(job.status).toBe("failed");
    expect(toJobView(job).resumable).toBe(true);
    expect(fs.existsSync(saved.file)).toBe(true);
    await expect(resumeIngestJob(h.db, jobId, { embedder })).resolves.toMatchObject({
      status: "completed",
      docsAdded: 10,
    });
  });
});
