import path from "node:path";
import { getDb } from "@/db/client";
import { findCorpus } from "@/db/queries/corpus";
import { getConfig } from "@/lib/config";
import { startIngest } from "@/lib/corpus/ingest";
import { SourceError } from "@/lib/corpus/formats";
import { removeUpload, removeUploadWhenCompleted, saveUpload, UploadError } from "@/lib/corpus/upload";
import { authErrorResponse, principalFromRequest } from "@/lib/auth/server";
import { AuthError, demand } from "@/lib/auth/policy";
import { gate, withSecurityHeaders } from "@/lib/auth/request-gate";

export const dynamic = "force-dynamic";

/**
 * One file per request, as the raw body (`?filename=` names it), so the body can be streamed to
 * disk as it arrives; multipart would need either buffering or a parser. The answer comes once
 * the file is stored and its job exists: the ingest then runs in this server process whether or
 * not the browser stays.
 */
export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  // The proxy does not see this route (it would buffer the body): the same gate runs here first.
  const gated = await gate(request, { streamedBody: true });
  if (gated.outcome === "refuse") return withSecurityHeaders(gated.response, "route");
  const { name } = await params;
  try {
    // Checked before a byte of the body is read, so a refused upload costs nothing.
    demand(await principalFromRequest(request), "corpus:write");
  } catch (e) {
    if (e instanceof AuthError) return authErrorResponse(e);
    throw e;
  }
  const fileName = new URL(request.url).searchParams.get("filename") ?? request.headers.get("x-filename") ?? "";
  const lengthHeader = request.headers.get("content-length");
  const declared = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  try {
    const { db } = await getDb();
    const corpus = await findCorpus(db, name);
    if (!corpus) throw new UploadError(`There is no corpus named "${name}"; create it first.`, 404);
    if (!fileName) throw new UploadError("The upload has no file name (?filename=...).", 400);
    if (!request.body) throw new UploadError(`${fileName} is empty`, 400);
    const uploadsDir = path.join(getConfig().dataDir, "uploads");
    const saved = await saveUpload(request.body as unknown as AsyncIterable<Uint8Array>, {
      uploadsDir,
      fileName,
      declaredBytes: declared,
    });
    let started: Awaited<ReturnType<typeof startIngest>>;
    try {
      started = await startIngest(db, saved.file, { corpus: corpus.name });
    } catch (e) {
      // Refused before a job existed: nothing can resume it, so the file must not stay behind.
      await removeUpload(uploadsDir, saved.file);
      throw e instanceof SourceError ? new UploadError(e.message, 422) : e;
    }
    const { jobId, done } = started;
    void removeUploadWhenCompleted(uploadsDir, saved.file, done);
    return Response.json({ jobId, fileName: path.basename(saved.file), bytes: saved.bytes }, { status: 202 });
  } catch (e) {
    if (e instanceof UploadError) return Response.json({ error: e.message }, { status: e.status });
    console.error("[uploads] failed:", e);
    return Response.json({ error: `The upload could not be ingested: ${(e as Error).message}` }, { status: 500 });
  }
}
