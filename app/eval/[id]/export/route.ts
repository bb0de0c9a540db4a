import { getDb } from "@/db/client";
import { canReadDebates } from "@/lib/auth/access";
import { principalFromRequest } from "@/lib/auth/server";
import { BLIND_EVAL_REFUSAL, evalReportAllowed } from "@/lib/export/scope";
import { buildReport, reportCsv, reportMarkdown } from "@/lib/eval/report";

export const dynamic = "force-dynamic";

/** The run's report as markdown, CSV (one row per claim) or JSON, as a download. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const format = new URL(req.url).searchParams.get("format") ?? "md";
  if (!["md", "csv", "json"].includes(format)) return new Response("format must be md, csv or json", { status: 400 });
  const { db } = await getDb();
  const principal = await principalFromRequest(req);
  if (!(await canReadDebates(db, principal))) return new Response("sign in first", { status: 401 });
  if (!(await evalReportAllowed(db, principal))) return new Response(BLIND_EVAL_REFUSAL, { status: 403 });
  const r = await buildReport(db, id);
  if (!r) return new Response("no such run", { status: 404 });
  const body = format === "json" ? JSON.stringify(r, null, 2) : format === "csv" ? reportCsv(r) : reportMarkdown(r);
  const type = format === "json" ? "application/json" : format === "csv" ? "text/csv" : "text/markdown";
  return new Response(body, {
    headers: {
      "content-type": `${type}; charset=utf-8`,
      "content-disposition": `attachment; filename="eval-${id.slice(0, 8)}.${format}"`,
    },
  });
}
