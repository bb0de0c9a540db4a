import { getDb } from "@/db/client";
import { canReadDebates } from "@/lib/auth/access";
import { principalFromRequest } from "@/lib/auth/server";
import { comparisonCsv, comparisonExportRows, comparisonJsonl } from "@/lib/compare/export";
import { labelScopeFor } from "@/lib/export/scope";
import { comparisonForViewer } from "@/lib/compare/visible";

export const dynamic = "force-dynamic";

/**
 * `/compare/<id>/export?format=jsonl|csv`: the comparison with its debates as a download. JSONL:
 * the comparison line, then each debate as /api/export writes it; CSV: one line per method and the
 * ensemble line, marked `ensemble` in the `row` column. Labels follow the same blind-annotation rule as /api/export.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const format = new URL(req.url).searchParams.get("format") ?? "jsonl";
  if (format !== "jsonl" && format !== "csv")
    return Response.json({ error: "format must be jsonl or csv" }, { status: 400 });
  const { db } = await getDb();
  const principal = await principalFromRequest(req);
  if (!(await canReadDebates(db, principal))) return Response.json({ error: "Sign in first." }, { status: 401 });
  const exp = await comparisonExportRows(
    db,
    id,
    await labelScopeFor(db, principal),
    async (view) => (await comparisonForViewer(db, principal, view)).view,
  );
  if (!exp) return Response.json({ error: "There is no comparison with this id." }, { status: 404 });
  const body = format === "csv" ? comparisonCsv(exp.csvRows) : comparisonJsonl(exp);
  const type = format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8";
  return new Response(body, {
    headers: {
      "content-type": type,
      "content-disposition": `attachment; filename="comparison-${id.slice(0, 8)}.${format}"`,
      "cache-control": "no-store",
    },
  });
}
