import type { Database } from "@/db/client";
import { eventBus, follow, liveTurns, runsHere, subscribe, type DebateEvent } from "@/lib/debate/events";
import { getDebateStatus } from "@/db/queries/debate-run";
import { debateView, viewExtras } from "@/lib/debate/view";
import { canReadDebates } from "@/lib/auth/access";
import { watchShare } from "@/lib/auth/share-watch";
import { visibilityOf } from "@/lib/auth/visibility";
import type { Principal } from "@/lib/auth/policy";
import { withoutJudge } from "@/lib/annotation/judge-reveal";
import { judgeFreeFilter } from "@/lib/debate/visible-events";

const TERMINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

/**
 * The id of the last event of a finished debate's stream. A standard EventSource client reconnects
 * whenever a stream closes; this id comes back as `Last-Event-ID` on that reconnect, and the answer
 * is then 204, which the standard says stops the client for good (unless the debate runs again).
 */
export const END_EVENT_ID = "end";

/**
 * Server-sent events for one debate, for a reader the caller has already allowed (the page's
 * stream, app/api/debates/[id]/events, and the API's, /api/v1/debates/{id}/events). The first event
 * is a snapshot (finished turns from the database plus the text of every turn in progress from
 * this process's buffer); live events follow. A debate running in another process (PostgreSQL) is
 * followed first: this process's buffer then holds the runner's text so far and every later delta
 * (lib/debate/pg-bus.ts). When that buffer loses step (text went missing on the way), the stream
 * closes and the client reconnects to a fresh snapshot, so no text is lost.
 */
export async function debateEventStream(
  db: Database,
  request: Request,
  id: string,
  principal: Principal | null,
  share: string | null,
  /**
   * What else the stream lives only as long as: an API token (lib/auth/api-token-watch.ts). It
   * calls `end` with the sentence the client gets in a last `revoked` event; returns its stop.
   */
  watch?: (end: (message: string) => void) => () => void,
): Promise<Response> {
  if (request.headers.get("last-event-id") === END_EVENT_ID) {
    const status = (await getDebateStatus(db, id))?.status;
    if (status && TERMINAL.has(status))
      return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  }
  // Opened only by the share link: it lives as long as the link does.
  const viaShare = !!share && !(await canReadDebates(db, principal));
  // Someone who may still label this debate gets no verdict or judging (lib/auth/visibility.ts).
  const showJudge = (await visibilityOf(db, principal, id)).verdict;
  const encoder = new TextEncoder();

  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const send = (event: string, data: unknown) => {
        if (!closed) controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      /** The debate is over: the documented last event (with the id a reconnect is refused by), then close. */
      const end = (status: string) => {
        if (!closed)
          controller.enqueue(
            encoder.encode(`id: ${END_EVENT_ID}\nevent: end\ndata: ${JSON.stringify({ status })}\n\n`),
          );
        close();
      };
      const unwatch = viaShare
        ? watchShare(db, share!, id, () => {
            send("revoked", { message: "This share link was revoked." });
            close();
          })
        : watch
          ? watch((message) => {
              send("revoked", { message });
              close();
            })
          : () => {};
      cleanup = unwatch;
      // Tells the browser to come back quickly after we close a stream that lost step.
      if (!closed) controller.enqueue(encoder.encode(`retry: 500\n\n`));
      let release = () => {};
      if (eventBus() && !runsHere(id)) {
        // Only a debate running now has text so far to wait for; otherwise its next run's events
        // arrive from the first one.
        const status = await getDebateStatus(db, id);
        release = await follow(id, { expectRunner: status?.status === "running" });
        if (request.signal.aborted || closed) {
          unwatch();
          return release();
        }
      }
      // Subscribe and read the live buffer in the same tick: every later delta is new to the snapshot.
      const buffered: DebateEvent[] = [];
      let ready = false;
      let filter: ReturnType<typeof judgeFreeFilter> | null = null;
      // Known from the snapshot, before any buffered event is forwarded.
      let protocol: string | null = null;
      const forward = (raw: DebateEvent) => {
        const e = filter ? filter.pass(raw) : raw;
        if (!e) return;
        send("debate", e);
        // What the method reads from the step just finished for the page (RADAR: the field that names its expert).
        if (e.type === "turn-end" && protocol) {
          const found = Object.entries(viewExtras(protocol, [{ ...e.turn, status: "completed" }])).filter(
            ([, v]) => v !== null,
          );
          if (found.length)
            send("debate", { type: "view-extras", extras: Object.fromEntries(found) } satisfies DebateEvent);
        }
        if (e.type === "status" && TERMINAL.has(e.status)) end(e.status);
      };
      const unsubscribe = subscribe(
        id,
        (e) => {
          if (!ready) buffered.push(e);
          else forward(e);
        },
        { onResync: close },
      );
      let live = liveTurns(id);
      if (!showJudge) {
        filter = judgeFreeFilter(live);
        live = filter.live;
      }
      const keepAlive = setInterval(() => !closed && controller.enqueue(encoder.encode(`: keep-alive\n\n`)), 15_000);
      cleanup = () => {
        unwatch();
        unsubscribe();
        release();
        clearInterval(keepAlive);
      };
      request.signal.addEventListener("abort", close);
      if (closed) return cleanup();

      const view = await debateView(db, id);
      if (!view) {
        send("missing", { id });
        return close();
      }
      protocol = view.protocol;
      send("snapshot", { debate: showJudge ? view : withoutJudge(view), live });
      ready = true;
      for (const e of buffered) forward(e);
      if (TERMINAL.has(view.status) && live.length === 0) end(view.status);
    },
    cancel() {
      cleanup();
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
