"use client";

import { CitedText } from "@/components/debate/cited-text";
import { retryNote, TurnCard } from "@/components/debate/turn-card";
import { gateValueSchema } from "@/lib/debate/tool-mad/steps";
import {
  answerLabelOf,
  answerReason,
  queryDiff,
  queryOf,
  toolCallOf,
  valueOf,
  type AgentRound,
  type ConsistencyValue,
  type ToolMadTurn,
} from "./rounds";
import { ScoreGauge } from "./score-gauge";
import { agentName, agentRoleLine, AR_HELP, F_HELP, schemeLabelStyle } from "./words";
import { labelWords } from "@/lib/debate/methods";
import { toolMadDefinition } from "@/lib/debate/tool-mad/definition";

export type PoolItem = {
  rank: number;
  text: string;
  title: string | null;
  url: string | null;
  addedSeq?: number | null;
  origin?: string | null;
};

const STAND_IN = "offline stand-in for web search";
/** The encoder the relevance threshold (0.8) is read against; any other makes AR "uncalibrated". */
const CALIBRATED_EMBEDDER = "local:minilm-l6";

/** A model call being written right now: the streamed text, with a plain-words heading. */
function LiveStep({ turn, title }: { turn: ToolMadTurn; title: string }) {
  return (
    <article
      data-testid="turn"
      data-seq={turn.seq}
      data-role={turn.role}
      data-kind={turn.kind}
      data-phase={turn.phase}
      data-status="streaming"
      aria-busy
      className="rounded-md border border-dashed border-black/25 bg-white p-2 text-sm"
    >
      <p className="flex flex-wrap justify-between gap-x-2 text-xs font-medium text-black/60">
        <span>{title}</span>
        <span aria-live="polite" className={turn.retry ? "text-amber-800" : undefined}>
          {turn.retry ? retryNote(turn.retry) : "writing…"}
        </span>
      </p>
      {/* An answer streams its reasoning first; the format tag is not for the reader. */}
      <p className="mt-1 whitespace-pre-wrap break-words text-black/80">
        {(turn.phase.startsWith("answer")
          ? answerReason(turn.content)
          : turn.content.replace(/^\s*QUERY\s*:\s*/i, "")) || "…"}
      </p>
    </article>
  );
}

function Failed({ turn, onCite }: { turn: ToolMadTurn; onCite: (rank: number) => void }) {
  return <TurnCard turn={turn} onCite={onCite} compact />;
}

function QueryBlock({
  turn,
  retrieve,
  claim,
}: {
  turn: ToolMadTurn | null;
  retrieve: ToolMadTurn | null;
  claim: string;
}) {
  if (turn && turn.status === "streaming") return <LiveStep turn={turn} title="Writing a search query" />;
  const q = queryOf(turn);
  const searched = toolCallOf(retrieve)?.request.query ?? q?.text ?? null;
  if (!q && !searched) return null;
  const text = q?.text ?? searched!;
  return (
    <div data-testid="tool-mad-query" {...(turn ? { "data-seq": turn.seq } : {})} className="text-sm">
      <p className="text-xs font-medium text-black/60">
        {turn
          ? "Searched for"
          : text === claim
            ? "Searched for the claim itself (query writing is off)"
            : "Searched for"}
      </p>
      <p className="break-words font-medium">“{text}”</p>
      {q?.previous ? (
        q.changed ? (
          <p className="mt-0.5 break-words text-xs text-black/60" data-testid="query-diff">
            Changed from the last round:{" "}
            {queryDiff(q.previous, q.text).map((w, i) =>
              w.op === "removed" ? (
                <del key={i} className="mr-1 text-red-800">
                  {w.text}
                </del>
              ) : w.op === "added" ? (
                <ins key={i} className="mr-1 bg-emerald-100 text-emerald-900 no-underline">
                  {w.text}
                </ins>
              ) : (
                <span key={i} className="mr-1">
                  {w.text}
                </span>
              ),
            )}
          </p>
        ) : (
          <p className="mt-0.5 text-xs text-black/60">Same query as last round.</p>
        )
      ) : null}
    </div>
  );
}

function Documents({
  turn,
  pool,
  selected,
  onSelect,
}: {
  turn: ToolMadTurn | null;
  pool: PoolItem[];
  selected: number | null;
  onSelect: (rank: number | null) => void;
}) {
  if (!turn) return null;
  const call = toolCallOf(turn);
  if (turn.status === "streaming") return <p className="text-xs text-black/60">Searching…</p>;
  if (turn.status === "failed")
    return (
      <p role="alert" className="text-sm text-red-800">
        The search failed: {turn.error ?? call?.error?.message ?? "no reason given"}
      </p>
    );
  const standIn = call ? !call.live && (call.provider === "corpus-standin" || call.label === STAND_IN) : false;
  // The pool rows this search added carry the [E#] the answer cites; a search kept out of the pool shows its raw results.
  const mine = pool.filter((e) => e.addedSeq === turn.seq).sort((a, b) => a.rank - b.rank);
  const docs: Array<{ key: string; rank: number | null; title: string | null; text: string; url: string | null }> =
    mine.length
      ? mine.map((e) => ({ key: `E${e.rank}`, rank: e.rank, title: e.title, text: e.text, url: e.url }))
      : (call?.results ?? []).map((r) => ({
          key: `r${r.rank}`,
          rank: null,
          title: r.title,
          text: r.text,
          url: r.url ?? null,
        }));
  const badge = (
    <span
      data-testid="provider-badge"
      className={`inline-block rounded px-1.5 py-0.5 text-[11px] font-medium ${standIn ? "bg-amber-100 text-amber-900 ring-1 ring-amber-700/30" : "bg-black/5 text-black/70"}`}
    >
      {call?.label ?? turn.model ?? "search"}
      {call?.live ? " · live" : ""}
    </span>
  );
  return (
    <div
      className="text-sm"
      data-testid="tool-mad-search"
      data-seq={turn.seq}
      data-provider={call?.provider}
      data-live={call?.live ?? undefined}
    >
      <p className="flex flex-wrap items-center gap-2 text-xs font-medium text-black/60">
        Found {docs.length} {docs.length === 1 ? "document" : "documents"} in {badge}
      </p>
      {docs.length === 0 ? <p className="mt-1 text-xs text-black/60">Nothing matched this query.</p> : null}
      <ol className="mt-1 space-y-1.5">
        {docs.map((d) => (
          <li
            key={d.key}
            data-testid="tool-mad-doc"
            data-rank={d.rank ?? undefined}
            data-selected={d.rank !== null && selected === d.rank}
            className={`rounded border p-2 ${d.rank !== null && selected === d.rank ? "border-accent bg-orange-50" : "border-black/10 bg-white"}`}
          >
            <details>
              <summary className="cursor-pointer break-words text-xs">
                {d.rank !== null ? (
                  <button
                    type="button"
                    className="mr-1 font-semibold"
                    onClick={() => onSelect(selected === d.rank ? null : d.rank)}
                    aria-pressed={selected === d.rank}
                  >
                    E{d.rank}
                  </button>
                ) : null}
                <span className="font-medium">{d.title || "Untitled"}</span>
              </summary>
              <p className="mt-1 whitespace-pre-wrap break-words text-xs">{d.text}</p>
              {d.url && /^https?:\/\//i.test(d.url) ? (
                <a className="text-xs underline" href={d.url} rel="noopener noreferrer nofollow" target="_blank">
                  source
                </a>
              ) : null}
            </details>
            {/* Said on every result, not once per list: a quoted or screenshotted document must not pass for a web result. */}
            {standIn ? (
              <p className="mt-0.5 text-[11px] font-medium text-amber-900">
                {STAND_IN}: a newsroom corpus document, not a live web result
              </p>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

function AnswerBlock({ turn, onCite }: { turn: ToolMadTurn | null; onCite: (rank: number) => void }) {
  if (!turn) return null;
  if (turn.status === "streaming") return <LiveStep turn={turn} title="Answering" />;
  if (turn.status !== "completed") return <Failed turn={turn} onCite={onCite} />;
  const label = answerLabelOf(turn);
  return (
    <article
      data-testid="turn"
      data-seq={turn.seq}
      data-role={turn.role}
      data-kind={turn.kind}
      data-phase={turn.phase}
      data-status={turn.status}
      className="text-sm"
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="text-xs font-medium text-black/60">Answer</span>
        <span
          data-testid="agent-label"
          className={`rounded px-2 py-0.5 text-xs font-bold ring-1 ${schemeLabelStyle(label)}`}
        >
          {/* The scheme's label in words ("Half true", "Answer could not be read"), never its code. */}
          {label ? labelWords(toolMadDefinition.name, label) : "no label"}
        </span>
      </p>
      {label === "UNPARSED" ? (
        <p className="mt-1 text-xs">
          The agent did not give a label in the required format; it cannot count as agreement.
        </p>
      ) : null}
      <div className="mt-1">
        <CitedText text={answerReason(turn.content)} onCite={onCite} />
      </div>
      <p className="mt-1 text-[11px] text-black/60">
        {turn.model} · {(turn.promptTokens ?? 0) + (turn.completionTokens ?? 0)} tokens
      </p>
    </article>
  );
}

function GateBlock({ cell, onCite }: { cell: AgentRound; onCite: (rank: number) => void }) {
  const liveScoring = cell.scoring.find((t) => t.status === "streaming");
  const failedScoring = cell.scoring.find((t) => t.status === "failed");
  // Read with the schema the protocol writes through; an old or damaged row says so instead of drawing nonsense.
  const gateRead =
    cell.gate && cell.gate.status === "completed" ? gateValueSchema.safeParse(valueOf<unknown>(cell.gate)) : null;
  const gate = gateRead?.success ? gateRead.data : null;
  const cs = valueOf<ConsistencyValue>(cell.consistency);
  if (gateRead && !gateRead.success)
    return (
      <p className="text-xs text-amber-800" data-testid="step-unread">
        Could not read this step (the gate&apos;s stored scores are not in the form this version reads).
      </p>
    );
  if (!gate) {
    if (liveScoring) return <LiveStep turn={liveScoring} title="Checking the answer against its documents" />;
    if (failedScoring) return <Failed turn={failedScoring} onCite={onCite} />;
    if (cs)
      return (
        <p className="text-xs text-black/70" data-testid="consistency">
          Consistency with its documents: {cs.cs === null ? "not computed" : cs.cs.toFixed(2)} (
          {cs.method === "embedding" ? "embedding approximation" : "cross-encoder"}); the judge weighs it.
        </p>
      );
    return null;
  }
  const unsupported = gate.statements.filter((s) => s.verdict !== 1);
  const uncalibrated = gate.AR !== null && (gate.uncalibrated || gate.embedder !== CALIBRATED_EMBEDDER);
  return (
    <div
      data-testid="gate"
      data-pass={gate.pass}
      className={`rounded-md p-2 ${gate.pass ? "bg-emerald-50" : "bg-red-50"}`}
    >
      <p className="mb-1 text-xs font-semibold">
        {gate.pass ? "Passed the checks" : "Failed the checks: this answer cannot end the debate"}
      </p>
      <div className="grid gap-2">
        <ScoreGauge
          name="Faithfulness (F)"
          help={F_HELP}
          value={gate.F}
          threshold={gate.tauF}
          compare={gate.gateCompare}
          note={
            gate.scorerNote ??
            (gate.scorerKind === "embedding"
              ? "Approximation by sentence similarity, not comparable with the paper."
              : null)
          }
        />
        <ScoreGauge
          name="Relevance (AR)"
          help={AR_HELP}
          value={gate.AR}
          threshold={gate.tauAR}
          compare={gate.gateCompare}
          note={
            uncalibrated
              ? `Uncalibrated: the threshold was set for MiniLM, this debate used ${gate.embedder ?? "another encoder"}.`
              : null
          }
        />
      </div>
      {gate.problems?.length ? (
        <p className="mt-1 text-xs text-red-800">Could not be scored: {gate.problems.join("; ")}</p>
      ) : gate.statements.length === 0 ? (
        <p className="mt-1 text-xs">The answer made no checkable statement, so faithfulness could not be computed.</p>
      ) : null}
      {unsupported.length ? (
        <div className="mt-2">
          <p className="text-xs font-medium">
            Not backed by its documents ({unsupported.length} of {gate.statements.length}):
          </p>
          <ul className="mt-0.5 space-y-0.5">
            {unsupported.map((s, i) => (
              <li key={i} data-testid="unsupported-statement" className="break-words text-xs">
                <span className="mr-1 font-bold text-red-800" aria-hidden>
                  ✗
                </span>
                <span className="underline decoration-red-700 decoration-wavy">{s.statement}</span>
                {s.reason ? <span className="text-black/60"> ({s.reason})</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {gate.statements.length || gate.questions.length ? (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-black/60">How this was scored</summary>
          <ul className="mt-1 space-y-0.5">
            {gate.statements.map((s, i) => (
              <li key={i} className="break-words">
                {s.verdict === 1 ? "✓" : "✗"} {s.statement}
              </li>
            ))}
          </ul>
          {gate.questions.length ? (
            <>
              <p className="mt-1 text-black/60">
                Questions the answer would answer, and their similarity to the claim:
              </p>
              <ul className="space-y-0.5">
                {gate.questions.map((q, i) => (
                  <li key={i} className="break-words">
                    {q.cosine.toFixed(2)} · {q.question}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="mt-1 text-black/60">
            Scored by {gate.scorerKind === "llm" ? "the judge's model" : "sentence similarity"}; relevance embedded with{" "}
            {gate.embedder ?? "no encoder (no questions)"}.
          </p>
        </details>
      ) : null}
    </div>
  );
}

/** One agent's work in one round, top to bottom in the order it happened. */
export function AgentColumn({
  cell,
  claim,
  pool,
  selected,
  onSelect,
  searchStandIn = false,
}: {
  cell: AgentRound;
  claim: string;
  pool: PoolItem[];
  selected: number | null;
  onSelect: (rank: number | null) => void;
  searchStandIn?: boolean;
}) {
  const empty = !cell.query && !cell.retrieve && !cell.answer && !cell.gate && cell.scoring.length === 0;
  const onCite = (rank: number) => onSelect(rank);
  return (
    <section
      data-testid="agent-column"
      data-agent={cell.agent}
      aria-label={agentName(cell.agent)}
      className={`min-w-0 space-y-3 rounded-lg border border-black/10 border-t-4 p-3 ${cell.agent.startsWith("rag") ? "border-t-teal-600 bg-teal-50/40" : cell.agent.startsWith("search") ? "border-t-indigo-600 bg-indigo-50/40" : "border-t-stone-500 bg-stone-50"}`}
    >
      <header>
        <h4 className="font-semibold">{agentName(cell.agent)}</h4>
        <p className="text-xs text-black/60">{agentRoleLine(cell.agent, searchStandIn)}</p>
      </header>
      {empty ? <p className="text-xs text-black/60">Waiting…</p> : null}
      {cell.query?.status === "failed" ? (
        <Failed turn={cell.query} onCite={onCite} />
      ) : (
        <QueryBlock turn={cell.query} retrieve={cell.retrieve} claim={claim} />
      )}
      <Documents turn={cell.retrieve} pool={pool} selected={selected} onSelect={onSelect} />
      <AnswerBlock turn={cell.answer} onCite={onCite} />
      {cell.answerRepair ? (
        <>
          <p className="text-xs text-black/60">
            The answer had no readable label, so the agent was asked once to restate it:
          </p>
          <AnswerBlock turn={cell.answerRepair} onCite={onCite} />
        </>
      ) : null}
      <GateBlock cell={cell} onCite={onCite} />
    </section>
  );
}
