import { getDb } from "@/db/client";
import { ingestUpload } from "@/lib/corpus/add-upload";
import { UploadError } from "@/lib/corpus/upload";
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
  const principal = await principalFromRequest(request);
  try {
    // Checked before a byte of the body is read, so a refused upload costs nothing.
    demand(principal, "corpus:write");
  } catch (e) {
    if (e instanceof AuthError) return authErrorResponse(e);
    throw e;
  }
  const fileName = new URL(request.url).searchParams.get("filename") ?? request.headers.get("x-filename") ?? "";
  const lengthHeader = request.headers.get("content-length");
  const declared = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  try {
    if (!request.body) throw new UploadError(`${fileName || "The upload"} is empty`, 400);
    const { db } = await getDb();
    const started = await ingestUpload(db, principal, name, request.body as unknown as AsyncIterable<Uint8Array>, {
      fileName,
      declaredBytes: declared,
    });
    return Response.json({ jobId: started.jobId, fileName: started.fileName, bytes: started.bytes }, { status: 202 });
  } catch (e) {
    if (e instanceof UploadError) return Response.json({ error: e.message }, { status: e.status });
    console.error("[uploads] failed:", e);
    return Response.json({ error: `The upload could not be ingested: ${(e as Error).message}` }, { status: 500 });
  }
}
