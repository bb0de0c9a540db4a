"use client";

import { useEffect, useReducer, useRef, useState } from "react";
import { reduce } from "@/components/debate/debate-live";
import type { DebateEvent, LiveTurn } from "@/lib/debate/events";
import type { DebateView } from "@/lib/debate/view";

type One = Parameters<typeof reduce>[0];
type OneAction = Parameters<typeof reduce>[1];
type All = Record<string, One>;

type Item = { id: string; action: OneAction };

/** Every member's state goes through the debate page's own reducer, so both pages read a stream alike. */
function reduceOne(state: All, a: Item): All {
  const cur = state[a.id];
  if (!cur && a.action.kind !== "snapshot") return state;
  const next = cur
    ? reduce(cur, a.action)
    : reduce({ view: (a.action as { view: DebateView }).view, live: [] }, a.action);
  return next === cur ? state : { ...state, [a.id]: next };
}

/** A frame's worth of events from every stream, applied in arrival order. */
function reduceAll(state: All, batch: Item[]): All {
  return batch.reduce(reduceOne, state);
}

const TERMINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);
export type Connection = "connecting" | "live" | "closed";
export type MemberStart = { view: DebateView; live: LiveTurn[] };

/**
 * Follows several debates at once, one event stream each (app/api/debates/[id]/events). Each
 * stream opens with a snapshot (finished turns plus the text so far of every turn being written),
 * so a reload or a dropped connection resumes where the debate is, not where the page was.
 * `onChange` fires when a member's status or verdict changes: the page then re-reads the
 * comparison (verdicts on the product scale, tokens, cost) from the server.
 */
export function useDebateStreams(
  starts: MemberStart[],
  { shareToken, onChange }: { shareToken?: string; onChange?: (debateId: string) => void } = {},
) {
  const [state, dispatch] = useReducer(reduceAll, starts, (s) =>
    Object.fromEntries(s.map((m) => [m.view.id, { view: m.view, live: m.live }])),
  );
  const [connections, setConnections] = useState<Record<string, Connection>>({});
  // Streams open once per member, from the first render: a refresh after a member finishes brings
  // new props, and must not close and reopen the streams of the members still running.
  const [ids] = useState(() => starts.map((s) => s.view.id).join(","));
  const [finishedAtStart] = useState(() =>
    starts
      .filter((s) => TERMINAL.has(s.view.status) && s.view.status !== "interrupted" && s.live.length === 0)
      .map((s) => s.view.id)
      .join(","),
  );
  // Four debates can send hundreds of deltas a second between them: the page renders them once a
  // frame, not once a delta, or a busy machine falls seconds behind the text.
  const queue = useRef<Item[]>([]);
  const frame = useRef<number | null>(null);
  const push = useRef((item: Item) => {
    queue.current.push(item);
    if (frame.current !== null) return;
    const flush = () => {
      frame.current = null;
      const batch = queue.current;
      queue.current = [];
      if (batch.length) dispatch(batch);
    };
    // A hidden tab gets no animation frames: a timer keeps its state current all the same.
    frame.current = document.hidden ? (setTimeout(flush, 100) as unknown as number) : requestAnimationFrame(flush);
  });
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  useEffect(() => {
    const done = new Set(finishedAtStart.split(",").filter(Boolean));
    const set = (id: string, c: Connection) => setConnections((prev) => (prev[id] === c ? prev : { ...prev, [id]: c }));
    const sources: EventSource[] = [];
    for (const id of ids.split(",").filter(Boolean)) {
      if (done.has(id)) {
        set(id, "closed");
        continue;
      }
      const es = new EventSource(
        `/api/debates/${id}/events${shareToken ? `?share=${encodeURIComponent(shareToken)}` : ""}`,
      );
      sources.push(es);
      es.addEventListener("open", () => set(id, "live"));
      es.addEventListener("snapshot", (m) => {
        const data = JSON.parse((m as MessageEvent).data) as { debate: DebateView; live: LiveTurn[] };
        push.current({ id, action: { kind: "snapshot", view: data.debate, live: data.live } });
        if (TERMINAL.has(data.debate.status) && data.live.length === 0) {
          es.close();
          set(id, "closed");
          // A member that finished while the page was away (or between render and stream).
          changed.current?.(id);
        }
      });
      es.addEventListener("debate", (m) => {
        const event = JSON.parse((m as MessageEvent).data) as DebateEvent;
        push.current({ id, action: { kind: "event", event } });
        if (event.type === "status" || event.type === "verdict") changed.current?.(id);
        if (event.type === "status" && TERMINAL.has(event.status)) {
          es.close();
          set(id, "closed");
        }
      });
      // The share link was revoked, or the debate is over (`end`): the server ended the stream for good.
      for (const last of ["revoked", "end"])
        es.addEventListener(last, () => {
          es.close();
          set(id, "closed");
        });
      // EventSource reconnects by itself; the new snapshot restores everything.
      es.addEventListener("error", () => set(id, es.readyState === EventSource.CLOSED ? "closed" : "connecting"));
    }
    return () => sources.forEach((es) => es.close());
  }, [ids, finishedAtStart, shareToken]);

  return { state, connections };
}
