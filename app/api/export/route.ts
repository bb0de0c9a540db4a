import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { exportDebates } from "@/lib/export/debates";
import {
  CLAIMREVIEW_NEEDS_URL,
  CONTENT_TYPES,
  EXPORT_FORMATS,
  serialise,
  type ExportFormat,
} from "@/lib/export/formats";
import { publicOrigin } from "@/lib/net/public-url";
import { AuthError, demand } from "@/lib/auth/policy";
import { authErrorResponse, principalFromRequest } from "@/lib/auth/server";
import { labelScopeFor } from "@/lib/export/scope";

export const dynamic = "force-dynamic";

/**
 * `/api/export?format=jsonl|csv|claimreview[&corpus=..][&run=..]` as a download. The body is
 * produced while it is sent, one page of debates at a time, and only as fast as the client reads
 * (pull-based stream), so a 50,000-debate export neither times out nor fills the server's memory.
 */
export async function GET(request: Request) {
  let principal;
  try {
    principal = demand(await principalFromRequest(request), "annotation:export");
  } catch (e) {
    if (e instanceof AuthError) return authErrorResponse(e);
    throw e;
  }
  const url = new URL(request.url);
  const format = url.searchParams.get("format") ?? "jsonl";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    return Response.json({ error: `format must be one of ${EXPORT_FORMATS.join(", ")}` }, { status: 400 });
  const { db } = await getDb();
  const filters = {
    corpus: url.searchParams.get("corpus") || undefined,
    run: url.searchParams.get("run") || undefined,
    scope: await labelScopeFor(db, principal),
  };
  const config = getConfig();
  // PUBLIC_URL, else the address this request came to as the browser named it (never the listen address).
  const appUrl = publicOrigin(request) ?? undefined;
  if (format === "claimreview" && !appUrl) return Response.json({ error: CLAIMREVIEW_NEEDS_URL }, { status: 400 });
  const chunks = serialise(exportDebates(db, filters), format as ExportFormat, config.organisation, appUrl);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const ext = format === "claimreview" ? "jsonld" : format;
  return new Response(body, {
    headers: {
      "content-type": CONTENT_TYPES[format as ExportFormat],
      "content-disposition": `attachment; filename="counterpoint-debates.${ext}"`,
      "cache-control": "no-store",
    },
  });
}
