"use client";

import { memo, useEffect, useMemo, useRef } from "react";
import Link from "next/link";
import type { LiveTurn } from "@/lib/debate/events";
import type { DebateView } from "@/lib/debate/view";
import { retryNote } from "@/components/debate/turn-card";
import { plainStep, roleDisplayName, type MethodViewExtras } from "@/lib/debate/definition";
import { findMethod } from "@/lib/debate/methods";
import { firstSentence } from "@/components/debate/verdict-summary";
import type { Connection } from "./use-debate-streams";
import { statusWords } from "./words";

/** How much of a turn being written the column shows: its newest words, where the text grows. */
const TAIL = 420;

/** A speaker by the method's own names for its roles, as its debate page names them. */
function speaker(t: { role: string; kind: string }, protocol: string, extras: MethodViewExtras) {
  const who = roleDisplayName(findMethod(protocol), t.role, extras);
  return t.kind === "tool" ? `${who} (search)` : who;
}

/**
 * One method's debate as it happens, in brief: every finished turn as its speaker and first line,
 * then each turn being written now with its text growing. The full transcript is one link away.
 */
/** Memoised: a delta for one debate re-renders that debate's column only. */
export const MemberColumn = memo(function MemberColumn({
  name,
  href,
  view,
  live,
  connection,
}: {
  name: string;
  href: string | null;
  view: DebateView;
  live: LiveTurn[];
  connection: Connection | undefined;
}) {
  // Each finished step in the method's plain words: no JSON, no answer markers, no bookkeeping steps.
  // Memoised on the stored turns: a streamed token changes `live`, not these.
  const finished = useMemo(() => {
    const def = findMethod(view.protocol);
    return view.turns.flatMap((t) => {
      if (t.status !== "completed" && t.status !== "failed") return [];
      const plain = plainStep(def, t, view.extras);
      return plain ? [{ ...t, plain }] : [];
    });
  }, [view.turns, view.protocol, view.extras]);
  const running = view.status === "running" || view.status === "queued";
  // While the debate runs, the newest finished turn stays in sight at the foot of its list.
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (running && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [running, finished.length]);
  return (
    <section
      aria-label={`${name} live`}
      data-testid="compare-column"
      data-protocol={view.protocol}
      data-status={view.status}
      className="flex min-w-0 flex-col gap-3 rounded-lg border border-black/10 bg-white p-3"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-x-2 gap-y-1">
        <h3 className="font-semibold">{name}</h3>
        <span className="text-xs text-black/60">
          {statusWords(view.status)}
          {running ? (connection === "live" ? " · ● live" : " · connecting…") : ""}
        </span>
      </header>
      <ol
        ref={list}
        aria-label="Finished turns"
        // A scrolling list must be reachable from the keyboard, or its later turns cannot be read without a mouse.
        tabIndex={0}
        className="max-h-72 space-y-1.5 overflow-y-auto text-sm"
        data-testid="finished-turns"
        data-count={finished.length}
      >
        {finished.length === 0 ? <li className="text-black/60">No finished turn yet.</li> : null}
        {finished.map((t) => (
          <li key={t.seq} data-testid="finished-turn" data-seq={t.seq} className="min-w-0 break-words">
            <span className="font-medium">{t.plain.speaker}:</span>{" "}
            <span className="text-black/70">
              {t.status === "failed" ? "failed" : firstSentence(t.plain.text, 140) || "—"}
            </span>
          </li>
        ))}
      </ol>
      {live.map((l) => (
        <div
          key={l.turn.seq}
          data-testid="live-turn"
          data-seq={l.turn.seq}
          data-length={l.text.length}
          className="min-w-0 rounded-md border-l-4 border-l-sky-600 bg-sky-50/70 p-2 text-sm"
        >
          <p className="text-xs font-semibold text-sky-900">
            {speaker(l.turn, view.protocol, view.extras)} is writing…{l.retry ? ` (${retryNote(l.retry)})` : ""}
          </p>
          <p className="whitespace-pre-wrap break-words text-black/80" aria-live="off">
            {l.text.length > TAIL ? `…${l.text.slice(-TAIL)}` : l.text || "…"}
          </p>
        </div>
      ))}
      {view.error ? <p className="text-sm text-red-800">{view.error}</p> : null}
      {href ? (
        <Link
          href={href}
          className="mt-auto text-sm underline decoration-black/30 underline-offset-2 hover:decoration-black"
        >
          Read the full debate
        </Link>
      ) : null}
    </section>
  );
});
