"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { ComparisonMember, ComparisonView } from "@/lib/compare/types";
import type { DebateView } from "@/lib/debate/view";
import { MemberColumn } from "./member-column";
import { MembersTable } from "./members-table";
import { OutcomePanel } from "./outcome-panel";
import { Reasons } from "./reasons";
import { useDebateStreams, type MemberStart } from "./use-debate-streams";
import { isActive, memberName } from "./words";

/**
 * A running member's numbers follow its stream (turns as they finish); a finished member's come
 * from the server, which reads the same turns once they are all stored.
 */
function withLiveNumbers(m: ComparisonMember, v: DebateView | undefined, now: number | null): ComparisonMember {
  if (!v) return m;
  // The stream knows first that a queued debate started; the server's row says so after a refresh.
  const status = m.status === "queued" && v.status === "running" ? "running" : m.status;
  if (!isActive({ status })) return m;
  const done = v.turns.filter((t) => t.status === "completed");
  const prompt = done.reduce((a, t) => a + (t.promptTokens ?? 0), 0);
  const completion = done.reduce((a, t) => a + (t.completionTokens ?? 0), 0);
  const priced = done.filter((t) => t.costUsd != null);
  return {
    ...m,
    status,
    tokens: { prompt: Math.max(prompt, m.tokens.prompt), completion: Math.max(completion, m.tokens.completion) },
    calls: Math.max(
      m.calls,
      done.filter((t) => t.kind !== "tool" && ((t.promptTokens ?? 0) > 0 || (t.completionTokens ?? 0) > 0)).length,
    ),
    costUsd:
      done.length && priced.length === 0
        ? m.costUsd
        : Math.max(
            m.costUsd ?? 0,
            priced.reduce((a, t) => a + (t.costUsd ?? 0), 0),
          ),
    durationMs: now !== null && v.startedAt ? Math.max(m.durationMs ?? 0, now - Date.parse(v.startedAt)) : m.durationMs,
  };
}

/**
 * One claim, several methods, on one page: the outcome in words first, one row per method, every
 * debate streaming side by side, then each method's reason. On a shared link (`shareToken`) the
 * members' own pages are not open to the reader, so their names link nowhere.
 */
export function ComparisonLive({
  view,
  starts,
  shareToken,
  shareTranscripts = false,
  controls,
}: {
  view: ComparisonView;
  starts: MemberStart[];
  shareToken?: string;
  shareTranscripts?: boolean;
  controls?: React.ReactNode;
}) {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Several members may finish within moments of each other: one re-read of the comparison for all.
  const refresh = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      router.refresh();
    }, 400);
  }, [router]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const { state, connections } = useDebateStreams(starts, { shareToken, onChange: refresh });
  // Running members' time ticks once a second, from mount only (server and first client render agree).
  const [now, setNow] = useState<number | null>(null);
  const ticking = view.members.some(isActive);
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);

  // Deltas change only a member's live text, not its numbers: the rows keep their identity until a
  // turn ends (a new view) or the clock ticks, so the table and the outcome do not re-render per token.
  const views = view.members.map((m) => state[m.debateId]?.view);
  const last = useRef<{
    views: typeof views;
    base: ComparisonView["members"];
    now: number | null;
    members: ComparisonView["members"];
  } | null>(null);
  const prev = last.current;
  const same =
    prev !== null &&
    prev.base === view.members &&
    prev.now === now &&
    prev.views.length === views.length &&
    prev.views.every((v, i) => v === views[i]);
  const members = same ? prev.members : view.members.map((m, i) => withLiveNumbers(m, views[i], now));
  useEffect(() => {
    last.current = { views, base: view.members, now, members };
  });
  // On a shared link a method's transcript opens only if the link's maker included the transcripts.
  const hrefFor = useCallback(
    (id: string) =>
      shareToken ? (shareTranscripts ? `/share/compare/${shareToken}/debates/${id}` : null) : `/debates/${id}`,
    [shareToken, shareTranscripts],
  );
  // The same elements while the rows are the same: React skips them when only live text moved.
  const outcome = useMemo(() => <OutcomePanel members={members} ensemble={view.ensemble} />, [members, view.ensemble]);
  const table = useMemo(
    () => <MembersTable members={members} ensemble={view.ensemble} hrefFor={hrefFor} />,
    [members, view.ensemble, hrefFor],
  );
  const reasons = useMemo(() => <Reasons members={members} />, [members]);
  const n = members.length;
  const anyRunning = members.some(isActive);

  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <p className="text-sm text-black/60">
          One claim, {n} methods{view.corpus ? <> · evidence from the corpus “{view.corpus.name}”</> : null}
        </p>
        <h1 className="text-2xl font-semibold tracking-tight break-words" data-testid="compare-claim">
          {view.claim.text}
        </h1>
      </header>

      {outcome}
      {table}
      {shareToken ? (
        <p className="text-sm text-black/60" data-testid="shared-transcripts-note">
          {shareTranscripts
            ? "Each method's name opens its whole debate, read-only: every turn, the evidence and the judge's scores."
            : "Whoever shared this comparison did not include each method's full transcript; ask them for a link that does."}
        </p>
      ) : null}

      <section aria-labelledby="compare-live" className="space-y-3">
        <h2 id="compare-live" className="text-lg font-semibold">
          {anyRunning ? "Watch them argue" : "How each debate went"}
        </h2>
        <div
          className="grid grid-cols-1 gap-3 lg:grid-cols-[repeat(var(--n),minmax(0,1fr))]"
          style={{ "--n": Math.min(n, 4) } as React.CSSProperties}
        >
          {members.map((m) => {
            const s = state[m.debateId];
            return s ? (
              <MemberColumn
                key={m.debateId}
                name={memberName(m, members)}
                href={hrefFor(m.debateId)}
                view={s.view}
                live={s.live}
                connection={connections[m.debateId]}
              />
            ) : null;
          })}
        </div>
      </section>

      {reasons}
      {controls}
    </div>
  );
}
