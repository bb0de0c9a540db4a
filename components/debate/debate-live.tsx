"use client";

import { usdWords } from "@/lib/cost-words";
import { useEffect, useMemo, useReducer, useState } from "react";
import type { DebateEvent, LiveTurn } from "@/lib/debate/events";
import type { DebateView } from "@/lib/debate/view";
import { spliceDelta } from "@/lib/debate/splice";
import { DebateControls } from "./debate-controls";
import { EvidencePanel } from "./evidence-panel";
import { JudgeWorking } from "./judge-working";
import { retryNote, RoleTones, TurnCard, type TurnLike } from "./turn-card";
import { VerdictCard } from "./verdict-card";
import { VerdictSummary } from "./verdict-summary";
import { methodViews } from "./method-views";
import { findMethod, methodTitle } from "@/lib/debate/methods";
import { roleDisplayName } from "@/lib/debate/definition";
import { withNote } from "@/lib/debate/view-notes";
import { InterventionGroup, InterventionLog } from "./interventions/intervention-item";
import { useInterventions } from "./interventions/use-interventions";

/** Turns being written right now (several at once when agents speak in parallel), by seq. */
type Live = LiveTurn[];
type State = { view: DebateView; live: Live };
type Action = { kind: "snapshot"; view: DebateView; live: Live } | { kind: "event"; event: DebateEvent };

const TERMINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

function upsertTurn(turns: DebateView["turns"], turn: DebateView["turns"][number]) {
  const i = turns.findIndex((t) => t.seq === turn.seq);
  if (i === -1) return [...turns, turn].sort((a, b) => a.seq - b.seq);
  const copy = turns.slice();
  copy[i] = turn;
  return copy;
}

const without = (live: Live, seq: number) => live.filter((l) => l.turn.seq !== seq);
const update = (live: Live, seq: number, f: (l: LiveTurn) => LiveTurn) =>
  live.map((l) => (l.turn.seq === seq ? f(l) : l));

/**
 * A delta joins the turn's text at its offset: text the snapshot already holds is not added twice.
 * The server never skips text (a stream that loses step is closed and starts over from a fresh
 * snapshot), so a delta past the end is only added as it is, never dropped: better shown than lost.
 */
export function joinDelta(text: string, e: { text: string; offset?: number }): string {
  if (e.offset === undefined) return text + e.text;
  const r = spliceDelta(text, e.offset, e.text);
  return r.kind === "append" ? r.text : r.kind === "duplicate" ? text : text + e.text;
}

export function reduce(state: State, action: Action): State {
  if (action.kind === "snapshot") return { view: action.view, live: action.live };
  const e = action.event;
  const v = state.view;
  switch (e.type) {
    case "turn-start":
      // A turn the snapshot already holds as finished (a replayed event) is not started again.
      if (v.turns.some((t) => t.seq === e.turn.seq && t.status !== "streaming")) return state;
      return {
        ...state,
        live: [...without(state.live, e.turn.seq), { turn: e.turn, text: "" }].sort((a, b) => a.turn.seq - b.turn.seq),
      };
    case "delta":
      // A turn the snapshot already holds as finished must not grow again.
      if (v.turns.some((t) => t.seq === e.seq && t.status === "completed")) return state;
      return { ...state, live: update(state.live, e.seq, (l) => ({ turn: l.turn, text: joinDelta(l.text, e) })) };
    case "turn-reset":
      return {
        ...state,
        live: update(state.live, e.seq, (l) => ({
          ...l,
          text: "",
          retry: { attempt: e.attempt, maxAttempts: e.maxAttempts, reason: e.reason },
        })),
      };
    case "view-extras":
      return { ...state, view: { ...v, extras: { ...v.extras, ...e.extras } } };
    case "intervention": {
      // Sent when submitted and again when applied: the later one replaces it.
      const rest = v.interventions.filter((x) => x.id !== e.intervention.id);
      return {
        ...state,
        view: { ...v, interventions: [...rest, e.intervention].sort((a, b) => a.at.localeCompare(b.at)) },
      };
    }
    case "turn-end": {
      const t = e.turn;
      const turn = { ...t, status: "completed", error: null, scores: t.scores };
      return {
        view: { ...v, turns: upsertTurn(v.turns, turn as DebateView["turns"][number]) },
        live: without(state.live, t.seq),
      };
    }
    case "turn-error": {
      const live = state.live.find((l) => l.turn.seq === e.seq);
      const failed = live
        ? ({
            ...live.turn,
            status: e.status,
            content: e.content,
            error: e.error,
            promptTokens: null,
            completionTokens: null,
            costUsd: null,
            latencyMs: null,
            citations: [],
            scores: null,
            metadata: null,
          } as DebateView["turns"][number])
        : null;
      return { view: failed ? { ...v, turns: upsertTurn(v.turns, failed) } : v, live: without(state.live, e.seq) };
    }
    case "evidence": {
      const have = new Set(v.evidence.map((x) => x.rank));
      const added = e.evidence.filter((x) => !have.has(x.rank)) as unknown as DebateView["evidence"];
      return added.length
        ? { ...state, view: { ...v, evidence: [...v.evidence, ...added].sort((a, b) => a.rank - b.rank) } }
        : state;
    }
    case "note":
      // Kept as stored (kind, key, value): the method's own views read it (RADAR: a checkpoint joins the chart).
      return { ...state, view: { ...v, notes: withNote(v.notes, { kind: e.name, key: e.key, value: e.value }) } };
    case "verdict":
      return {
        ...state,
        view: {
          ...v,
          verdict: {
            ...e.verdict,
            details: {
              ...(e.verdict.decidedBy ? { decidedBy: e.verdict.decidedBy } : {}),
              ...(e.verdict.stopReason ? { stopReason: e.verdict.stopReason } : {}),
              ...e.verdict.details,
            },
          },
        },
      };
    case "status":
      return {
        ...state,
        live: e.status === "running" ? state.live : [],
        view: {
          ...v,
          status: e.status as DebateView["status"],
          error: e.error ?? (e.status === "running" ? null : v.error),
        },
      };
  }
}

/**
 * One entry per turn: a turn being written replaces its own row (the database holds it as
 * "streaming" with no text yet), so a page opened mid-turn never draws it twice.
 */
function withLive(turns: DebateView["turns"], live: Live): TurnLike[] {
  let out = turns as TurnLike[];
  for (const l of live) {
    const i = out.findIndex((t) => t.seq === l.turn.seq);
    if (i !== -1 && out[i]!.status !== "streaming") continue;
    const card: TurnLike = { ...l.turn, content: l.text, status: "streaming", citations: [], retry: l.retry ?? null };
    out = i === -1 ? [...out, card].sort((a, b) => a.seq - b.seq) : out.map((t, j) => (j === i ? card : t));
  }
  return out;
}

const STATUS_WORDS: Record<string, string> = { cancelled: "stopped" };

/** Ticks once a second after mount only: the server and the first client render agree (no hydration mismatch). */
function useNow(active: boolean) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

const PHASE_TITLES: Record<string, string> = {
  opening: "Opening statements",
  closing: "Closing statements",
  verdict: "Verdict",
};
function phaseTitle(phase: string) {
  const m = /^rebuttal-(\d+)$/.exec(phase);
  if (m) return `Rebuttals${m[1] === "1" ? "" : `, round ${m[1]}`}`;
  return PHASE_TITLES[phase] ?? phase;
}

/**
 * `canControl` only hides the stop and resume buttons; the actions check the role themselves.
 * `shareToken` lets a share link's reader open the event stream without an account.
 */
export function DebateLive({
  initial,
  initialLive = [],
  canControl = false,
  shareToken,
  extra,
}: {
  initial: DebateView;
  initialLive?: Live;
  canControl?: boolean;
  shareToken?: string;
  extra?: React.ReactNode;
}) {
  const [state, dispatch] = useReducer(reduce, { view: initial, live: initialLive });
  const [selected, setSelected] = useState<number | null>(null);
  const [connection, setConnection] = useState<"connecting" | "live" | "closed">("connecting");
  const { view, live } = state;

  useEffect(() => {
    if (TERMINAL.has(initial.status) && initial.status !== "interrupted") {
      setConnection("closed");
      return;
    }
    const es = new EventSource(
      `/api/debates/${initial.id}/events${shareToken ? `?share=${encodeURIComponent(shareToken)}` : ""}`,
    );
    es.addEventListener("open", () => setConnection("live"));
    es.addEventListener("snapshot", (m) => {
      const data = JSON.parse((m as MessageEvent).data) as { debate: DebateView; live: Live };
      dispatch({ kind: "snapshot", view: data.debate, live: data.live });
      if (TERMINAL.has(data.debate.status) && data.live.length === 0) {
        es.close();
        setConnection("closed");
      }
    });
    es.addEventListener("debate", (m) => {
      const event = JSON.parse((m as MessageEvent).data) as DebateEvent;
      dispatch({ kind: "event", event });
      if (event.type === "status" && TERMINAL.has(event.status)) {
        es.close();
        setConnection("closed");
      }
    });
    // The share link was revoked, or the debate is over (`end`): the server ended the stream for good.
    for (const last of ["revoked", "end"])
      es.addEventListener(last, () => {
        es.close();
        setConnection("closed");
      });
    // EventSource reconnects by itself; the server's new snapshot restores everything.
    es.addEventListener("error", () => setConnection(es.readyState === EventSource.CLOSED ? "closed" : "connecting"));
    return () => es.close();
    // The stream is per debate and per run: resuming reloads the page's data with a new status.
  }, [initial.id, initial.status, shareToken]);

  const shown = useMemo(() => withLive(view.turns, live), [view.turns, live]);
  const speeches = shown.filter((t) => t.kind === "speech");
  const working = shown.filter((t) => t.kind !== "speech");
  const phases = useMemo(() => {
    const order: string[] = [];
    for (const t of speeches) if (!order.includes(t.phase)) order.push(t.phase);
    return order;
  }, [speeches]);
  const citedBy = useMemo(() => {
    const map = new Map<number, number[]>();
    for (const t of speeches)
      if (t.status === "completed") for (const r of t.citations) map.set(r, [...(map.get(r) ?? []), t.seq]);
    return map;
  }, [speeches]);

  // Totals follow the turns as they finish (each turn's usage includes its retries and samples).
  const done = view.turns.filter((t) => t.status === "completed");
  const tokens = done.reduce((a, t) => a + (t.promptTokens ?? 0) + (t.completionTokens ?? 0), 0);
  const unpriced = done.filter((t) => t.costUsd == null).length;
  const cost = done.reduce((a, t) => a + (t.costUsd ?? 0), 0);
  const now = useNow(!view.finishedAt && view.status === "running");
  const end = view.finishedAt ? Date.parse(view.finishedAt) : now;
  const totalMs = view.startedAt && end !== null ? end - Date.parse(view.startedAt) : null;
  // A method's own views, from the components registry (components/debate/method-views.tsx).
  const views = methodViews(view.protocol);
  const def = findMethod(view.protocol);
  const seqs = useMemo(() => speeches.map((t) => t.seq), [speeches]);
  // People's interventions: the panel (controllers only), their places among the turns, the evidence marks.
  const people = useInterventions(view, def, canControl, seqs);
  const searches = done.filter((t) => t.kind === "tool").length;
  const modelCalls = done.filter(
    (t) => t.kind !== "tool" && ((t.promptTokens ?? 0) > 0 || (t.completionTokens ?? 0) > 0),
  ).length;
  const costText =
    done.length === 0
      ? "no cost yet"
      : unpriced === done.length
        ? "cost unknown (no price for this model)"
        : `cost ${usdWords(cost)}${unpriced ? ` (price unknown for ${unpriced} ${unpriced === 1 ? "turn" : "turns"})` : ""}`;

  // Role colours come from the method's definition, for every card below (its own views' too).
  const tones = def?.roleTones ?? {};
  if (views.Debate)
    return (
      <RoleTones.Provider value={tones}>
        <views.Debate
          view={view}
          live={live}
          connection={connection}
          canControl={canControl}
          extra={
            <>
              {extra}
              {people.panel}
              <InterventionLog items={people.items} />
            </>
          }
        />
      </RoleTones.Provider>
    );
  return (
    <RoleTones.Provider value={tones}>
      <div className="space-y-6">
        <header className="space-y-3">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span data-testid="debate-status" className="rounded-full bg-black/5 px-2 py-0.5 font-medium">
              {STATUS_WORDS[view.status] ?? view.status}
            </span>
            <span className="text-black/60">
              {views.headline ? (
                views.headline(view)
              ) : (
                <>
                  {[methodTitle(view.protocol), view.variant, `${view.evidenceMode} evidence`]
                    .filter(Boolean)
                    .join(" · ")}
                </>
              )}
            </span>
            <span className="text-black/60" aria-live="polite">
              {connection === "live" ? "● live" : connection === "connecting" ? "connecting…" : ""}
            </span>
          </div>
          <h1 className="text-2xl font-semibold tracking-tight break-words">{view.claim.text}</h1>
          {view.claim.date ? (
            <p className="text-sm text-black/60">Claim made on {view.claim.date.slice(0, 10)}</p>
          ) : null}
          {view.verdict ? (
            <VerdictSummary
              verdict={view.verdict}
              turns={views.countsModelCalls ? modelCalls : done.length}
              turnsUnit={views.countsModelCalls ? "model call" : "turn"}
              method={view.protocol}
              steps={view.turns}
              evidence={view.evidence}
              interventions={people.items}
              cost={costText}
              onCite={setSelected}
            />
          ) : null}
          {canControl ? <DebateControls id={view.id} status={view.status} /> : null}
          {extra}
          {views.Transcript ? people.panel : null}
          {view.error ? (
            <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
              {view.error}
            </p>
          ) : null}
        </header>

        {views.Transcript ? (
          <>
            <views.Transcript
              view={view}
              turns={shown}
              selected={selected}
              onSelect={setSelected}
              verdict={
                view.verdict ? (
                  <VerdictCard
                    verdict={view.verdict}
                    onCite={setSelected}
                    method={view.protocol}
                    turns={view.turns}
                    extra={views.VerdictExtra ? <views.VerdictExtra details={view.verdict.details ?? null} /> : null}
                  />
                ) : null
              }
            />
            <InterventionLog items={people.items} />
            <p className="text-sm text-black/60" data-testid="debate-totals">
              {modelCalls} model {modelCalls === 1 ? "call" : "calls"} · {searches}{" "}
              {searches === 1 ? "search" : "searches"} · {tokens} tokens · {costText}
              {totalMs !== null ? ` · ${(totalMs / 1000).toFixed(1)} s` : ""}
            </p>
          </>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
            <section aria-label="Debate transcript" className="min-w-0 space-y-6">
              {phases.map((phase) => (
                <div key={phase} className="space-y-3">
                  <h2 className="text-sm font-semibold uppercase tracking-wide text-black/60">{phaseTitle(phase)}</h2>
                  {speeches
                    .filter((t) => t.phase === phase)
                    .map((t) => (
                      <div key={t.seq} className="space-y-3">
                        <InterventionGroup items={people.placed.before.get(t.seq) ?? []} />
                        <TurnCard turn={t} onCite={setSelected} speaker={roleDisplayName(def, t.role, view.extras)} />
                      </div>
                    ))}
                  {views.AfterPhase ? <views.AfterPhase view={view} phase={phase} /> : null}
                </div>
              ))}
              <InterventionGroup items={people.placed.after} label="People's interventions after the last turn" />
              {live
                .filter((l) => l.turn.kind !== "speech")
                .slice(0, 1)
                .map((l) => (
                  <p key={l.turn.seq} className="text-sm text-black/60" aria-live="polite">
                    {views.workingWords?.(l.turn.role) ?? "The judge is deciding…"}
                    {l.retry ? ` (${retryNote(l.retry)})` : ""}
                  </p>
                ))}
              {view.verdict ? (
                <VerdictCard
                  verdict={view.verdict}
                  onCite={setSelected}
                  method={view.protocol}
                  turns={view.turns}
                  extra={views.VerdictExtra ? <views.VerdictExtra details={view.verdict.details ?? null} /> : null}
                />
              ) : null}
              <JudgeWorking turns={working} onCite={setSelected} />
              <p className="text-sm text-black/60" data-testid="debate-totals">
                {done.length} {done.length === 1 ? "turn" : "turns"} · {tokens} tokens · {costText}
                {totalMs !== null ? ` · ${(totalMs / 1000).toFixed(1)} s` : ""}
              </p>
            </section>
            <div className="min-w-0 space-y-4">
              {people.panel}
              <EvidencePanel
                evidence={view.evidence}
                selected={selected}
                onSelect={setSelected}
                citedBy={citedBy}
                marks={people.marks}
              />
            </div>
          </div>
        )}
      </div>
    </RoleTones.Provider>
  );
}
