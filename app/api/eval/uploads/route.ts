import { UploadError } from "@/lib/corpus/upload";
import { saveClaimsUpload } from "@/lib/eval/uploads";
import { authErrorResponse, principalFromRequest } from "@/lib/auth/server";
import { AuthError, demand } from "@/lib/auth/policy";
import { gate, withSecurityHeaders } from "@/lib/auth/request-gate";

export const dynamic = "force-dynamic";

/**
 * A claims file for a new evaluation run, as the raw body (`?filename=` names it), streamed to
 * disk up to MAX_CLAIMS_FILE_BYTES. Answers with an upload id that the /eval/new form's action
 * then names; the run is made there, with the rest of the form.
 */
export async function POST(request: Request) {
  // The proxy does not see this route (it would buffer the body): the same gate runs here first.
  const gated = await gate(request, { streamedBody: true });
  if (gated.outcome === "refuse") return withSecurityHeaders(gated.response, "route");
  let userId: string;
  try {
    // Checked before a byte of the body is read, so a refused upload costs nothing.
    userId = demand(await principalFromRequest(request), "debate:start").id;
  } catch (e) {
    if (e instanceof AuthError) return authErrorResponse(e);
    throw e;
  }
  const fileName = new URL(request.url).searchParams.get("filename") ?? "";
  const lengthHeader = request.headers.get("content-length");
  const declared = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  try {
    if (!fileName) throw new UploadError("The upload has no file name (?filename=...).", 400);
    if (!request.body) throw new UploadError(`${fileName} is empty`, 400);
    const saved = await saveClaimsUpload(request.body as unknown as AsyncIterable<Uint8Array>, {
      userId,
      fileName,
      declaredBytes: declared,
    });
    return Response.json(saved, { status: 201 });
  } catch (e) {
    if (e instanceof UploadError) return Response.json({ error: e.message }, { status: e.status });
    console.error("[eval uploads] failed:", e);
    return Response.json({ error: "The claims file could not be stored; try again." }, { status: 500 });
  }
}
