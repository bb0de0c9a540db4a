import path from "node:path";
import type { Database } from "@/db/client";
import { findCorpus } from "@/db/queries/corpus";
import { demand, type Principal } from "@/lib/auth/policy";
import { getConfig } from "@/lib/config";
import { SourceError } from "./formats";
import { startIngest } from "./ingest";
import type { IngestSummary } from "./types";
import { removeUpload, removeUploadWhenCompleted, saveUpload, UploadError } from "./upload";

/*
 * Adding documents to a corpus from what a client sends, for the corpus page's upload route and
 * the API alike: the bytes are streamed to the uploads folder within the format's limit (upload.ts),
 * then ingested as a job that runs in this server process, resumable like any file job. The answer
 * comes once the job exists; the upload is removed when the job completes.
 */

export type StartedUpload = { jobId: string; fileName: string; bytes: number; done: Promise<IngestSummary> };

export const uploadsDir = () => path.join(getConfig().dataDir, "uploads");

export async function ingestUpload(
  db: Database,
  principal: Principal | null,
  corpusName: string,
  body: AsyncIterable<Uint8Array>,
  opts: { fileName: string; declaredBytes?: number },
): Promise<StartedUpload> {
  demand(principal, "corpus:write");
  const corpus = await findCorpus(db, corpusName);
  if (!corpus) throw new UploadError(`There is no corpus named "${corpusName}"; create it first.`, 404);
  if (!opts.fileName) throw new UploadError("The upload has no file name (?filename=...).", 400);
  const dir = uploadsDir();
  const saved = await saveUpload(body, { uploadsDir: dir, fileName: opts.fileName, declaredBytes: opts.declaredBytes });
  let started: Awaited<ReturnType<typeof startIngest>>;
  try {
    started = await startIngest(db, saved.file, { corpus: corpus.name });
  } catch (e) {
    // Refused before a job existed: nothing can resume it, so the file must not stay behind.
    await removeUpload(dir, saved.file);
    throw e instanceof SourceError ? new UploadError(e.message, 422) : e;
  }
  void removeUploadWhenCompleted(dir, saved.file, started.done);
  return { jobId: started.jobId, fileName: path.basename(saved.file), bytes: saved.bytes, done: started.done };
}
