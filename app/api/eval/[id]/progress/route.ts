import { getDb } from "@/db/client";
import { canReadDebates } from "@/lib/auth/access";
import { principalFromRequest } from "@/lib/auth/server";
import { getRun } from "@/db/queries/eval";
import { runProgress } from "@/lib/eval/report";

export const dynamic = "force-dynamic";

/** A run's progress, polled by its page while it runs; read from the database, so any worker's work shows. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db } = await getDb();
  if (!(await canReadDebates(db, await principalFromRequest(req))))
    return Response.json({ error: "Sign in first." }, { status: 401 });
  const run = await getRun(db, id);
  if (!run) return Response.json({ error: "no such run" }, { status: 404 });
  return Response.json({ status: run.status, status_reason: run.statusReason, progress: await runProgress(db, id) });
}
