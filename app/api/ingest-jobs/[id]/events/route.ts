import { getDb } from "@/db/client";
import { canReadDebates } from "@/lib/auth/access";
import { principalFromRequest } from "@/lib/auth/server";
import { getIngestJob } from "@/lib/corpus/ingest";
import { jobVersion, toJobView } from "@/lib/corpus/job-view";

export const dynamic = "force-dynamic";

const POLL_MS = 500;

/**
 * Server-sent events with one ingest job's progress. The job may run in another process (the CLI
 * against PostgreSQL, or a resumed run), so the row is the source of truth: it is polled and each
 * change is pushed. The stream ends when the job does.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return Response.json({ error: "not an ingest job id" }, { status: 400 });
  const { db } = await getDb();
  if (!(await canReadDebates(db, await principalFromRequest(request))))
    return Response.json({ error: "Sign in first." }, { status: 401 });
  const encoder = new TextEncoder();
  let stop = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let last = "";
      let timer: ReturnType<typeof setTimeout> | undefined;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const keepAlive = setInterval(() => write(": keep-alive\n\n"), 15_000);
      stop = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        clearInterval(keepAlive);
        try {
          controller.close();
        } catch {
          // Already closed by the client going away.
        }
      };
      request.signal.addEventListener("abort", () => stop());

      const poll = async () => {
        if (closed) return;
        try {
          const job = await getIngestJob(db, id);
          if (!job) {
            write(`event: missing\ndata: ${JSON.stringify({ id })}\n\n`);
            return stop();
          }
          const view = toJobView(job);
          const version = jobVersion(view);
          if (version !== last) {
            last = version;
            write(`event: job\ndata: ${JSON.stringify(view)}\n\n`);
          }
          if (view.status !== "running") return stop();
        } catch (e) {
          // A failed read is retried at the next tick; the browser keeps what it has.
          console.error("[ingest-jobs] could not read job", id, (e as Error).message);
        }
        timer = setTimeout(poll, POLL_MS);
      };
      void poll();
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
