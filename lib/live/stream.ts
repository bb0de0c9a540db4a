import type { Database } from "@/db/client";
import { cardsByIds, getLiveSession } from "@/db/queries/live";
import { cardViews, changedCards, sessionView } from "./board";
import { watchBoard } from "./bus";

/*
 * The board as server-sent events, the debate stream's pattern (lib/debate/event-stream.ts): every
 * event's id is the revision it brings the board to, so a reload, a late join or a reconnect after
 * a server restart sends `Last-Event-ID` and gets every card changed since, from the database,
 * nothing twice. A change here or on another server (lib/live/bus.ts) makes the stream read the
 * cards after the last revision it sent.
 */

/** Cards sent in one read; a board far behind catches up in several. */
const PAGE = 200;
/** Cards with a debate running are looked at this often, so a verdict reaches the board when it is done. */
const DEBATE_POLL_MS = 5_000;

export async function liveBoardStream(db: Database, request: Request, id: string): Promise<Response> {
  const fromHeader = Number(request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after"));
  let after = Number.isSafeInteger(fromHeader) && fromHeader > 0 ? fromHeader : 0;
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const write = (s: string) => {
        if (!closed) controller.enqueue(encoder.encode(s));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      // One read at a time; a change during a read is read next (nothing is lost, nothing sent twice).
      let reading = false;
      let again = false;
      const debating = new Set<string>();
      const read = async () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            for (;;) {
              const cards = await changedCards(db, id, after, PAGE);
              if (!cards.length || closed) break;
              after = cards.at(-1)!.rev;
              for (const c of cards) {
                if (c.debate && !["completed", "failed", "cancelled", "interrupted"].includes(c.debate.status))
                  debating.add(c.id);
                else debating.delete(c.id);
              }
              write(`id: ${after}\nevent: cards\ndata: ${JSON.stringify({ cards })}\n\n`);
              if (cards.length < PAGE) break;
            }
          } while (again && !closed);
        } catch {
          // The database went away (a restart): the client reconnects and resumes from its last id.
          close();
        } finally {
          reading = false;
        }
      };
      write("retry: 1000\n\n");
      const session = await getLiveSession(db, id);
      if (!session) {
        write(`event: missing\ndata: ${JSON.stringify({ id })}\n\n`);
        return close();
      }
      write(`event: session\ndata: ${JSON.stringify(sessionView(session))}\n\n`);
      const unwatch = watchBoard(id, () => void read());
      const keepAlive = setInterval(() => write(": keep-alive\n\n"), 15_000);
      // A debate's verdict is the debate's, not the card's: cards with one running are re-sent when it ends.
      const poll = setInterval(() => {
        if (!debating.size) return;
        void cardsByIds(db, id, [...debating])
          .then((rows) => cardViews(db, rows))
          .then((cards) => {
            const done = cards.filter((c) => debating.has(c.id) && c.debate && c.debate.verdict !== null);
            for (const c of done) debating.delete(c.id);
            if (done.length) write(`event: cards\ndata: ${JSON.stringify({ cards: done })}\n\n`);
          })
          .catch(() => undefined);
      }, DEBATE_POLL_MS);
      cleanup = () => {
        unwatch();
        clearInterval(keepAlive);
        clearInterval(poll);
      };
      request.signal.addEventListener("abort", close);
      await read();
      // The backlog is sent: the board is as it is now (the page hides its "catching up" note).
      write(`event: ready\ndata: ${JSON.stringify({ rev: after })}\n\n`);
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
