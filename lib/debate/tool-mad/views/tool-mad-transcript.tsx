"use client";

import { useEffect, useMemo } from "react";
import { JudgeWorking } from "@/components/debate/judge-working";
import { TurnCard } from "@/components/debate/turn-card";
import { AgentColumn, type PoolItem } from "./agent-column";
import { layoutToolMad, valueOf, type ConsensusValue, type Round, type ToolMadTurn } from "./rounds";
import { agentName, AR_HELP, F_HELP, schemeLabelStyle, toolMadLabelWords } from "./words";

/** `lastRound`: no round follows (the rounds are used up, or a budget sent the debate to its judge). */
function ConsensusMarker({ round, lastRound }: { round: Round; lastRound: boolean }) {
  const c = valueOf<ConsensusValue>(round.consensus);
  if (!c) return null;
  const labels = Object.values(c.labels);
  const sameLabel = labels.length > 0 && labels.every((l) => l === labels[0]) && labels[0] !== "UNPARSED";
  const next = lastRound ? "the judge decides" : "next round";
  let text: string;
  if (c.agreed) text = `Both agents agree: ${toolMadLabelWords(c.label)} — no judge needed`;
  else if (sameLabel && !c.gatesPassed)
    text = `Both said ${toolMadLabelWords(labels[0]!)}, but an answer failed its checks — ${next}`;
  else
    text = `They disagree (${Object.entries(c.labels)
      .map(([a, l]) => `${agentName(a)}: ${toolMadLabelWords(l)}`)
      .join(", ")}) — ${next}`;
  return (
    <p
      data-testid="consensus-marker"
      data-agreed={c.agreed}
      role="status"
      className={`rounded-md px-3 py-2 text-sm font-medium ${c.agreed ? "bg-emerald-100 text-emerald-950" : "bg-stone-100 text-black/80"}`}
    >
      {c.agreed ? "✓ " : "↻ "}
      {text}
    </p>
  );
}

/**
 * Tool-MAD's transcript: per round a column per agent (side by side on a wide screen, stacked on a
 * phone), the consensus marker under each round, then the judge. A citation [E#] highlights the
 * document in the column that found it.
 */
export function ToolMadTranscript({
  turns,
  evidence,
  config,
  claim,
  selected,
  onSelect,
  verdict,
}: {
  turns: ToolMadTurn[];
  evidence: PoolItem[];
  config: Record<string, unknown> | null;
  claim: string;
  selected: number | null;
  onSelect: (rank: number | null) => void;
  verdict: React.ReactNode;
}) {
  const agents = Array.isArray(config?.agents) ? (config.agents as string[]) : undefined;
  // The configuration names agent kinds ("rag"); duplicates in ablations get -2.
  const configuredKey = agents?.map((a, i) => `${a}-agent${agents.slice(0, i).includes(a) ? "-2" : ""}`).join(",");
  const layout = useMemo(
    () => layoutToolMad(turns, configuredKey ? configuredKey.split(",") : undefined),
    [turns, configuredKey],
  );
  const maxRounds = typeof config?.rounds === "number" ? config.rounds : null;
  const judgeStarted = layout.judge.length > 0;
  const search = (config?.tools as { search?: { live?: boolean } } | undefined)?.search;
  const searchStandIn = search?.live === false;
  const cols = layout.agents.length >= 3 ? "md:grid-cols-3" : layout.agents.length === 2 ? "md:grid-cols-2" : "";

  useEffect(() => {
    if (selected === null) return;
    document
      .querySelector(`[data-testid=tool-mad-doc][data-rank="${selected}"]`)
      ?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [selected]);

  const judgeLive = layout.judge.filter((t) => t.status === "streaming");
  const judgeDone = layout.judge.filter((t) => t.status !== "streaming");

  return (
    <section aria-label="Debate transcript" className="min-w-0 space-y-6">
      {config?.variant !== "v1" && config?.gate !== "off" ? (
        <div data-testid="checks-legend" className="rounded-md bg-white p-3 text-xs text-black/70 ring-1 ring-black/10">
          <p className="font-medium text-black/80">How each answer is checked before agreement counts</p>
          <p>{F_HELP}</p>
          <p>{AR_HELP}</p>
          <p>
            The agents stop when they give the same label and every answer passes both checks; otherwise the next round
            starts, and after the last one a judge decides.
          </p>
        </div>
      ) : null}
      {layout.rounds.length === 0 ? <p className="text-sm text-black/60">The agents are starting…</p> : null}
      {layout.rounds.map((r) => (
        <div key={r.round} data-testid="tool-mad-round" data-round={r.round} className="space-y-3">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-black/60">
            Round {r.round}
            {maxRounds ? ` of ${maxRounds}` : ""}
          </h2>
          <div className={`grid gap-3 ${cols}`}>
            {r.agents.map((cell) => (
              <AgentColumn
                key={cell.agent}
                cell={cell}
                claim={claim}
                pool={evidence}
                selected={selected}
                onSelect={onSelect}
                searchStandIn={searchStandIn}
              />
            ))}
          </div>
          <ConsensusMarker
            round={r}
            lastRound={
              (maxRounds !== null && r.round >= maxRounds) || (judgeStarted && r.round === layout.rounds.at(-1)!.round)
            }
          />
        </div>
      ))}
      {layout.other.length ? (
        <div className="space-y-2">
          {layout.other.map((t) => (
            <TurnCard key={t.seq} turn={t} onCite={(n) => onSelect(n)} compact />
          ))}
        </div>
      ) : null}
      {judgeLive.map((t) => (
        <TurnCard key={t.seq} turn={{ ...t, content: t.content }} onCite={(n) => onSelect(n)} />
      ))}
      {judgeDone.some((t) => t.status === "failed")
        ? judgeDone
            .filter((t) => t.status === "failed")
            .map((t) => <TurnCard key={t.seq} turn={t} onCite={(n) => onSelect(n)} />)
        : null}
      {verdict}
      <JudgeWorking turns={judgeDone.filter((t) => t.status === "completed")} onCite={(n) => onSelect(n)} />
    </section>
  );
}

/** A one-line label badge in the scheme's own words, for the verdict card. */
export function SchemeLabel({ label }: { label: string }) {
  return (
    <span className={`rounded px-2 py-0.5 text-sm font-bold ring-1 ${schemeLabelStyle(label)}`}>
      {toolMadLabelWords(label)}
    </span>
  );
}
