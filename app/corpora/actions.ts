"use server";

import path from "node:path";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { findCorpus } from "@/db/queries/corpus";
import { getConfig } from "@/lib/config";
import {
  cancelIngestJob,
  getIngestJob,
  ingestSample,
  listIngestJobs,
  resumeIngestJob,
  startIngest,
} from "@/lib/corpus/ingest";
import { isUrl } from "@/lib/corpus/formats";
import { createCorpus, CorpusRequestError } from "@/lib/corpus/create";
import { SAMPLE_CORPUS_NAME } from "@/lib/corpus/sample";
import { removeUploadWhenCompleted } from "@/lib/corpus/upload";
import type { IngestSummary } from "@/lib/corpus/types";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";
import { requirePermission } from "@/lib/auth/server";
import { reembedChoices } from "@/lib/embeddings/choices";
import { AuthError } from "@/lib/auth/policy";
import { refuse, type FormState as ServerFormState } from "@/lib/forms/state";

/** Form actions report a refusal in the form, with what was entered, instead of failing the whole page. */
async function refusal(form: FormData): Promise<FormState | null> {
  try {
    await requirePermission("corpus:write");
    return null;
  } catch (e) {
    if (e instanceof AuthError) return refuse(form, e.message);
    throw e;
  }
}

export type FormState = ServerFormState;

const uploadsDir = () => path.join(getConfig().dataDir, "uploads");

/** Small batches, so the page's progress moves several times while the demo's 30 documents are embedded. */
const DEMO_BATCH_SIZE = 8;

/**
 * Starts loading the demo corpus in the server process and sends the browser to the corpus page,
 * where the job's progress streams in. The embedding takes seconds to tens of seconds, far
 * longer than a form post should wait.
 */
export async function loadDemoAction() {
  return refusalsAsStatus(async () => {
    await requirePermission("corpus:write");
    const { db } = await getDb();
    const existing = await findCorpus(db, SAMPLE_CORPUS_NAME);
    const busy = existing && (await listIngestJobs(db, existing.id, { limit: 5 })).some((j) => j.status === "running");
    if (!busy) {
      let failure: Error | undefined;
      await new Promise<void>((resolve) => {
        // The first progress report comes right after the job row is written: from then on the page can show it.
        ingestSample(db, { batchSize: DEMO_BATCH_SIZE, onProgress: () => resolve() }).then(
          () => resolve(),
          (e: Error) => {
            console.error("[corpora] demo corpus failed to load:", e);
            failure = e;
            resolve();
          },
        );
      });
      if (failure && !(await findCorpus(db, SAMPLE_CORPUS_NAME)))
        throw new Error(`Could not load the demo corpus: ${failure.message}`);
    }
    revalidatePath("/");
    revalidatePath("/corpora");
    redirect(`/corpora/${SAMPLE_CORPUS_NAME}`);
  });
}

export async function createCorpusAction(_prev: FormState, form: FormData): Promise<FormState> {
  const name = String(form.get("name") ?? "").trim();
  const refused = await refusal(form);
  if (refused) return refused;
  try {
    const { db } = await getDb();
    await createCorpus(db, await requirePermission("corpus:write"), { name });
  } catch (e) {
    if (e instanceof CorpusRequestError) return refuse(form, e.message, e.field);
    return refuse(form, `Could not create the corpus: ${(e as Error).message}`, "name");
  }
  revalidatePath("/corpora");
  redirect(`/corpora/${name}`);
}

/** Fetching happens before the job exists, so an unreachable or refused URL is answered here. */
export async function ingestUrlAction(_prev: FormState, form: FormData): Promise<FormState> {
  const corpus = String(form.get("corpus") ?? "");
  const url = String(form.get("url") ?? "").trim();
  const refused = await refusal(form);
  if (refused) return refused;
  if (!isUrl(url)) return refuse(form, "Enter a web address starting with http:// or https://.", "url");
  try {
    const { db } = await getDb();
    if (!(await findCorpus(db, corpus))) return refuse(form, `There is no corpus named "${corpus}".`);
    await startIngest(db, url, { corpus });
  } catch (e) {
    return refuse(form, (e as Error).message, "url");
  }
  revalidatePath(`/corpora/${corpus}`);
  return { message: `Fetched ${url}; its ingest job is below.` };
}

export async function cancelJobAction(form: FormData) {
  return refusalsAsStatus(async () => {
    await requirePermission("corpus:write");
    const id = String(form.get("id") ?? "");
    if (!/^[0-9a-f-]{36}$/i.test(id)) return;
    const { db } = await getDb();
    const job = await getIngestJob(db, id);
    if (!job) return;
    await cancelIngestJob(db, id);
    revalidatePath("/corpora", "layout");
  });
}

/**
 * Resumes in the background. The action waits until the job is claimed or refused (source changed,
 * running elsewhere), so it can report a refusal; a run that starts is followed on the page.
 */
export async function resumeJobAction(_prev: FormState, form: FormData): Promise<FormState> {
  const refused = await refusal(form);
  if (refused) return refused;
  const id = String(form.get("id") ?? "");
  const { db } = await getDb();
  const job = await getIngestJob(db, id);
  if (!job) return { error: "That job no longer exists." };
  let started = () => {};
  const claimed = new Promise<undefined>((r) => (started = () => r(undefined)));
  // The first progress report comes once the job is claimed, so the page re-renders it as running.
  const done: Promise<IngestSummary> = resumeIngestJob(db, id, { onProgress: () => started() });
  if (job.kind === "file") void removeUploadWhenCompleted(uploadsDir(), job.source, done);
  const early = await Promise.race([
    claimed,
    done.then(
      () => undefined,
      (e: Error) => e.message,
    ),
    // A cancelled run of this job may first have to finish its batch (resumeIngestJob waits for it).
    new Promise<undefined>((r) => setTimeout(r, 30_000)),
  ]);
  revalidatePath("/corpora", "layout");
  if (early) console.warn(`[ingest] job ${id} could not be resumed: ${early}`);
  return early ? { error: `Could not resume: ${early}` } : {};
}

const ReembedForm = z.object({
  corpus: z.string().trim().min(1, "name the corpus"),
  model: z.string().trim().min(1, "choose an embedding model"),
});

/**
 * Starts re-embedding a corpus in the server process; the job then shows in the corpus's job list
 * with its progress, and can be cancelled or resumed there like an ingest.
 */
export async function reembedCorpusAction(_prev: FormState, form: FormData): Promise<FormState> {
  const refused = await refusal(form);
  if (refused) return refused;
  const parsed = ReembedForm.safeParse({ corpus: form.get("corpus") ?? "", model: form.get("model") ?? "" });
  if (!parsed.success)
    return refuse(
      form,
      `Could not start re-embedding: ${parsed.error.issues.map((i) => i.message).join("; ")}.`,
      "model",
    );
  const { corpus, model } = parsed.data;
  const choices = reembedChoices();
  if (!choices.includes(model))
    return refuse(form, `${model} is not offered here; choose one of ${choices.join(", ")}.`, "model");
  try {
    const { db } = await getDb();
    if (!(await findCorpus(db, corpus))) return refuse(form, `There is no corpus named "${corpus}".`);
    const { startReembed } = await import("@/lib/corpus/reembed");
    await startReembed(db, corpus, { model });
  } catch (e) {
    return refuse(form, (e as Error).message, "model");
  }
  revalidatePath(`/corpora/${corpus}`);
  return { message: `Re-embedding with ${model}; searches switch to it when every passage has its vector.` };
}
