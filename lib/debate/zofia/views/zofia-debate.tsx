"use client";

import { useMemo, useState } from "react";
import type { LiveTurn } from "@/lib/debate/events";
import type { DebateView } from "@/lib/debate/view";
import { PeopleVerdictHead } from "@/components/debate/people-verdict";
import { CitedText } from "@/components/debate/cited-text";
import { zofiaDefinition } from "@/lib/debate/zofia/definition";
import { verdictInWords } from "@/lib/debate/methods";
import { DebateControls } from "@/components/debate/debate-controls";
import { mergeLive, PageSection, type ProtocolPageProps } from "@/components/debate/protocol-page";
import { EvidencePanel } from "@/components/debate/evidence-panel";
import { AnalysisCards } from "./analysis-cards";
import { DebateRounds, JudgeCallLine } from "./debate-rounds";
import { EntityPipeline } from "./entity-pipeline";
import { InformationMatrix } from "./information-matrix";
import { dayBefore, readZofia, seesByAgent, type ZTurn } from "./read";

/**
 * The page of a ZoFia debate (spec §5, issue 12 "The page"): the verdict first, then how it was
 * reached in the order it happened — entities to keywords to search, what each agent was given,
 * the analyses, and the debate with the judge's call after each exchange. DebateLive keeps the
 * event stream and hands its state here when `view.protocol === "zofia"`.
 */
export type ZofiaDebateProps = ProtocolPageProps;

const STOP_WORDS: Record<string, string> = {
  judge: "the judge was confident enough to end the debate",
  rounds: "after the last round the judge had to choose",
  "budget:tokens": "the token budget ran out, and the judge chose",
  "budget:calls": "the call budget ran out, and the judge chose",
};

const VERDICT_STYLE: Record<string, string> = {
  REAL: "bg-emerald-700 text-white",
  FAKE: "bg-red-700 text-white",
  UNPARSED: "bg-stone-300 text-black",
};

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const off = (v: unknown) => v === false || v === "off";

const merged = (turns: DebateView["turns"], live: LiveTurn[]) => mergeLive<ZTurn>(turns, live);
const Section = PageSection;

export function ZofiaDebate({ view, live, connection, canControl = false, extra }: ZofiaDebateProps) {
  const [selected, setSelected] = useState<number | null>(null);
  const turns = useMemo(() => merged(view.turns, live), [view.turns, live]);
  const steps = useMemo(() => readZofia(turns), [turns]);
  const sees = useMemo(() => seesByAgent(turns), [turns]);
  const config = asObj(view.config);
  const claim = view.claim;
  const date = view.claim.date ? view.claim.date.slice(0, 10) : null;
  const cutoff = dayBefore(date);
  const wikiOn = !steps.wikiOff && !off(config.wikipedia);
  const webOn = !off(config.web);
  const disabled = new Set<string>([
    ...(off(config.linguist) ? ["linguist"] : []),
    ...(off(config.expert) ? ["expert"] : []),
    ...(off(config.claimVerification) ? ["extractor", "verifier"] : []),
    ...(off(config.debate) ? ["pro", "con"] : []),
  ]);
  const gamma = typeof config.gamma === "number" ? config.gamma : 0.5;
  // Counted in the pool the agents read (and the evidence panel lists), not in the raw search answers.
  const origin = (e: { origin?: unknown }) => (typeof e.origin === "string" ? e.origin : "");
  const webResults = view.evidence.filter(
    (e) => origin(e).startsWith("tool:") && origin(e) !== "tool:wikipedia",
  ).length;
  const keptBySeq = new Map<number, number>();
  for (const e of view.evidence)
    if (typeof e.addedSeq === "number") keptBySeq.set(e.addedSeq, (keptBySeq.get(e.addedSeq) ?? 0) + 1);
  const wikiPassages = view.evidence.filter((e) => origin(e) === "tool:wikipedia").length;
  const verdict = view.verdict;
  const reasonFromTurns = verdict ? (zofiaDefinition.reasonFromTurns?.(verdict, view.turns) ?? null) : null;
  const details = asObj(verdict?.details);
  const stopReason = typeof details.stopReason === "string" ? details.stopReason : null;
  const probs = verdict?.labelProbs
    ? Object.entries(verdict.labelProbs as Record<string, number>).filter(([, p]) => typeof p === "number")
    : [];
  const citedBy = useMemo(() => {
    const map = new Map<number, number[]>();
    for (const t of turns)
      if (t.status === "completed") for (const r of t.citations ?? []) map.set(r, [...(map.get(r) ?? []), t.seq]);
    return map;
  }, [turns]);
  const done = view.turns.filter((t) => t.status === "completed");
  const tokens = done.reduce((a, t) => a + (t.promptTokens ?? 0) + (t.completionTokens ?? 0), 0);
  const calls = done.filter((t) => t.model && (t.promptTokens ?? 0) + (t.completionTokens ?? 0) > 0).length;
  const running = live.find((l) => l.turn.kind !== "speech");

  return (
    <div className="min-w-0 space-y-6" data-testid="zofia-page">
      <header className="min-w-0 space-y-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span data-testid="debate-status" className="rounded-full bg-black/5 px-2 py-0.5 font-medium">
            {view.status === "cancelled" ? "stopped" : view.status}
          </span>
          <span className="text-black/60">ZoFia · news article check</span>
          <span className="text-black/60" aria-live="polite">
            {connection === "live" ? "● live" : connection === "connecting" ? "connecting…" : ""}
          </span>
        </div>
        <h1 className="break-words text-2xl font-semibold tracking-tight">{claim.title || "Untitled article"}</h1>
        <p className="text-sm text-black/60">
          {date
            ? `Published ${date} · web evidence up to ${cutoff}`
            : "No publication date given: web evidence is not limited by date"}
          {claim.url ? (
            <>
              {" · "}
              <a
                href={claim.url}
                rel="noopener noreferrer nofollow"
                target="_blank"
                className="break-all underline underline-offset-2"
              >
                {claim.url}
              </a>
            </>
          ) : null}
        </p>

        {verdict ? (
          <section
            aria-label="Verdict"
            data-testid="zofia-verdict"
            className="rounded-lg border-2 border-black/80 bg-white p-4"
          >
            <PeopleVerdictHead
              method={view.protocol}
              verdict={verdict}
              turns={view.turns}
              evidence={view.evidence}
              onCite={setSelected}
              confidenceWords="judge's confidence"
              ownLabelTestId="zofia-verdict-label"
              interventions={view.interventions}
            />
            {verdict.label === "UNPARSED" ? (
              <p className="mt-2 text-sm">
                The judge&apos;s final answer could not be read as real or fake; no label was guessed.
              </p>
            ) : null}
            {probs.length ? (
              <p className="mt-2 text-sm text-black/80" data-testid="zofia-label-probs">
                The judge&apos;s last call, real against fake:{" "}
                {probs.map(([k, p], i) => (
                  <span key={k}>
                    {i ? " · " : ""}
                    {verdictInWords(view.protocol, k).text} {(p * 100).toFixed(0)}%
                  </span>
                ))}
              </p>
            ) : null}
            <p className="mt-1 text-sm text-black/60">
              Decided in round {verdict.roundsCompleted ?? "?"}
              {stopReason ? `: ${STOP_WORDS[stopReason] ?? stopReason}` : ""}. This is a model&apos;s reading of the
              article, not a fact-check: read how it got there below.
            </p>
            {/* The judge answers one letter; only a longer answer (a repaired or wordy one) is worth opening. */}
            {/* The reason people read, from the definition: the last argument of the side the judge agreed with, said as such. */}
            {!verdict.reason?.trim() && reasonFromTurns ? (
              <details className="mt-2 text-sm" data-testid="zofia-reason">
                <summary className="cursor-pointer font-medium">That argument in full</summary>
                <CitedText text={reasonFromTurns.text} onCite={setSelected} />
              </details>
            ) : null}
            {verdict.reason && verdict.reason.trim().length > 2 ? (
              <details className="mt-2 text-sm">
                <summary className="cursor-pointer font-medium">The judge&apos;s last words</summary>
                <CitedText text={verdict.reason} onCite={setSelected} />
              </details>
            ) : null}
          </section>
        ) : null}

        {canControl ? <DebateControls id={view.id} status={view.status} /> : null}
        {extra}
        {view.error ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
            {view.error}
          </p>
        ) : null}
        <details className="rounded-md border border-black/10 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium">
            The article ({view.claim.text.length.toLocaleString("en-US")} characters)
          </summary>
          <p className="mt-2 max-h-96 overflow-y-auto whitespace-pre-wrap break-words leading-relaxed">
            {view.claim.text}
          </p>
        </details>
      </header>

      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-8">
          {steps.unread.length ? (
            <p role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="zofia-unread">
              Could not read {steps.unread.length === 1 ? "this step" : `${steps.unread.length} steps`} (stored by an
              older version): {steps.unread.map((u) => u.phase).join(", ")}. The rest of the page is shown as stored.
            </p>
          ) : null}
          <Section
            id="zofia-pipeline"
            title="1 · From entities to evidence"
            help="No language model here: the article's names are scored for how central they are, the most salient non-redundant ones become keywords, and one search is sent with all of them."
          >
            <EntityPipeline
              ner={steps.ner}
              salience={steps.salience}
              keywords={steps.keywords}
              web={steps.web}
              wiki={steps.wiki}
              wikiOff={steps.wikiOff}
              gamma={gamma}
              cutoff={cutoff}
              keptBySeq={keptBySeq}
            />
          </Section>

          <Section
            id="zofia-matrix"
            title="2 · What each agent was given"
            help="In the article, from the web, from the model's own knowledge, from the encyclopedia."
          >
            <InformationMatrix
              webOn={webOn}
              wikiOn={wikiOn}
              webResults={webResults}
              wikiEntries={wikiPassages}
              disabled={disabled}
              sees={sees}
            />
          </Section>

          <Section
            id="zofia-analyses"
            title="3 · Analyses"
            help="Written independently, before the debate; the debaters read all of them."
          >
            <AnalysisCards steps={steps} disabled={disabled} />
          </Section>

          <Section
            id="zofia-debate"
            title="4 · Debate"
            help="An advocate and a critic argue; after each exchange the judge says real, fake, or continue. It ends the debate only when quite sure, and must choose after round 5."
          >
            {steps.exchanges.length === 0 && !steps.soloFinal ? (
              <p className="text-sm text-black/60">Starts when the analyses are done.</p>
            ) : null}
            <DebateRounds exchanges={steps.exchanges} onCite={setSelected} />
            {steps.soloFinal ? <JudgeCallLine call={steps.soloFinal} /> : null}
          </Section>

          {running && view.status === "running" ? (
            <p className="text-sm text-black/60" aria-live="polite" data-testid="zofia-working">
              Working: {running.turn.role.replace(/-/g, " ")} · {running.turn.phase.replace(/[:-]/g, " ")}…
            </p>
          ) : null}
          <p className="text-sm text-black/60" data-testid="debate-totals">
            {done.length} steps · {calls} model calls · {tokens} tokens
          </p>
        </div>
        <EvidencePanel evidence={view.evidence} selected={selected} onSelect={setSelected} citedBy={citedBy} />
      </div>
    </div>
  );
}
