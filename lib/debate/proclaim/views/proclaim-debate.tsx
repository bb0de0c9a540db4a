"use client";

import { useMemo, useState } from "react";
import type { LiveTurn } from "@/lib/debate/events";
import type { DebateView } from "@/lib/debate/view";
import { PeopleVerdictHead } from "@/components/debate/people-verdict";
import { CitedText } from "@/components/debate/cited-text";
import { DebateControls } from "@/components/debate/debate-controls";
import { mergeLive, PageSection, type ProtocolPageProps } from "@/components/debate/protocol-page";
import { EvidenceTable } from "./evidence-table";
import { PanelBallots } from "./panel-ballots";
import { TrialSection } from "./trial-section";
import {
  asObj,
  confidenceSteps,
  evidenceRows,
  judgesOfConfig,
  panelBallots,
  premiseChecklist,
  readTrial,
  stopWords,
  tokensUsed,
  verdictWords,
  type PTurn,
} from "./read";

/**
 * The page of a PROClaim debate (spec §5, issue 13 "The page"): the verdict and how sure the court
 * is first, then the trial in the order it happened: premises, evidence weighed, the trial, the
 * trial with sides switched, and the panel. DebateLive keeps the event stream and hands its state
 * here when `view.protocol === "proclaim"`.
 */
export type ProclaimDebateProps = ProtocolPageProps;

const merged = (turns: DebateView["turns"], live: LiveTurn[]) => mergeLive<PTurn>(turns, live);
const Section = (p: React.ComponentProps<typeof PageSection>) => <PageSection {...p} testId={p.id} />;

const fmt = (n: number) => n.toLocaleString("en-US");
const PAPER_TOKENS = 210_900;

export function ProclaimDebate({ view, live, connection, canControl = false, extra }: ProclaimDebateProps) {
  const [selected, setSelected] = useState<number | null>(null);
  const turns = useMemo(() => merged(view.turns, live), [view.turns, live]);
  const premises = useMemo(() => premiseChecklist(turns), [turns]);
  const rows = useMemo(() => evidenceRows(view.evidence), [view.evidence]);
  const primary = useMemo(() => readTrial(turns, "primary"), [turns]);
  const switched = useMemo(() => readTrial(turns, "switched"), [turns]);
  const config = asObj(view.config);
  const ballots = useMemo(() => panelBallots(turns, judgesOfConfig(config)), [turns, config]);
  const verdict = view.verdict;
  const details = asObj(verdict?.details);
  const steps = verdict ? confidenceSteps(verdict.label, details) : [];
  const stopReason = typeof details.stopReason === "string" ? details.stopReason : null;
  const switchedStop = asObj(details.stopReasons).switched;
  const tokens = tokensUsed(turns);
  const budget =
    typeof asObj(config.budget).budgetTokens === "number" ? (asObj(config.budget).budgetTokens as number) : null;
  const consistency = turns.find((t) => t.phase === "consistency" && t.status === "completed");
  const gamma = asObj(asObj(consistency?.metadata).json).score;
  const admitted = rows.pretrial.filter((r) => r.status === "admitted").length;
  const refused = rows.pretrial.filter((r) => r.status === "discarded" || r.status === "unparsed").length;
  const disputed = rows.pretrial.filter((r) => r.status === "disputed").length;
  const working = live.filter((l) => l.turn.phase !== "panel").at(-1);
  const w = verdict ? verdictWords(verdict.label) : null;
  const onCite = (rank: number) => {
    setSelected(rank);
    document.getElementById(`evidence-E${rank}`)?.scrollIntoView({ behavior: "smooth", block: "center" });
  };
  const switchOff = config.roleSwitch === false;
  // The ballots sit under the verdict once the judges start; before that, the trial comes first.
  const panelStarted = ballots.some((b) => b.status !== "waiting");
  const panel = (
    <Section
      id="proclaim-panel-section"
      title={ballots.length > 1 ? "The three judges" : "The judge"}
      help={
        ballots.length > 1
          ? "Three judges read the trial and vote independently, at the same time; the majority decides, a tie goes to the chief justice."
          : "One judge reads the trial and decides."
      }
    >
      <PanelBallots ballots={ballots} onCite={onCite} />
    </Section>
  );

  return (
    <div className="min-w-0 space-y-8" data-testid="proclaim-page">
      <header className="min-w-0 space-y-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span data-testid="debate-status" className="rounded-full bg-black/5 px-2 py-0.5 font-medium">
            {view.status === "cancelled" ? "stopped" : view.status}
          </span>
          <span className="text-black/60">PROClaim · courtroom debate</span>
          <span className="text-black/60" aria-live="polite">
            {connection === "live" ? "● live" : connection === "connecting" ? "connecting…" : ""}
          </span>
        </div>
        <h1 className="break-words text-2xl font-semibold tracking-tight">{view.claim.text}</h1>

        {verdict && w ? (
          <section
            aria-label="Verdict"
            data-testid="proclaim-verdict"
            className="min-w-0 rounded-lg border-2 border-black/80 bg-white p-4"
          >
            <PeopleVerdictHead
              method={view.protocol}
              verdict={verdict}
              turns={view.turns}
              evidence={view.evidence}
              onCite={onCite}
              confidenceWords="court's confidence"
              ownLabelTestId="proclaim-verdict-label"
              confidenceTestId="proclaim-confidence"
              interventions={view.interventions}
            />
            {verdict.label === "INCONCLUSIVE" ? (
              <p className="mt-1 text-sm text-black/70">No TRUE or FALSE: the court could not decide.</p>
            ) : null}
            {verdict.reason ? (
              <details className="mt-2 text-sm">
                <summary className="cursor-pointer font-medium">The court&apos;s reasoning in full</summary>
                <CitedText text={verdict.reason} onCite={onCite} />
              </details>
            ) : null}
            <p className="mt-2 text-sm text-black/70" data-testid="proclaim-stop">
              {typeof switchedStop === "string" && switchedStop === stopReason
                ? `Both trials ended because ${stopWords(stopReason)}.`
                : `The trial ended because ${stopWords(stopReason)}${typeof switchedStop === "string" ? `; the trial with sides switched ended because ${stopWords(switchedStop)}` : ""}.`}
            </p>
            {steps.length ? (
              <details className="mt-2 text-sm" data-testid="proclaim-confidence-steps" open>
                <summary className="cursor-pointer font-medium">How the confidence was worked out</summary>
                <dl className="mt-2 space-y-1">
                  {steps.map((s) => (
                    <div key={s.name} className="min-w-0 sm:grid sm:grid-cols-[11rem_10rem_minmax(0,1fr)] sm:gap-2">
                      <dt className="inline font-medium sm:block">{s.name}</dt>{" "}
                      <dd className="inline font-mono sm:block">{s.value}</dd>
                      <dd className="text-black/70">{s.words}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            ) : null}
          </section>
        ) : null}

        <div
          className="min-w-0 rounded-md border border-black/10 bg-white p-3 text-sm"
          data-testid="proclaim-token-meter"
          aria-live="polite"
        >
          <p>
            <strong>{fmt(tokens)}</strong> tokens{" "}
            {view.status === "running" || view.status === "queued" ? "used so far" : "used"}
            {budget ? ` of a ${fmt(budget)} budget` : ""} · PROClaim&apos;s paper reports about {fmt(PAPER_TOKENS)} per
            claim
          </p>
          {budget ? (
            <div
              className="mt-1 h-2 w-full overflow-hidden rounded bg-black/10"
              role="meter"
              aria-valuemin={0}
              aria-valuemax={budget}
              aria-valuenow={Math.min(tokens, budget)}
              aria-label="Tokens used of the budget"
            >
              <div
                className={`h-full ${tokens >= budget ? "bg-red-700" : "bg-ink"}`}
                style={{ width: `${Math.min(100, (tokens / budget) * 100)}%` }}
              />
            </div>
          ) : null}
          {working && view.status === "running" ? (
            <p className="mt-1 text-xs text-black/60" data-testid="proclaim-working">
              Now: {working.turn.role.replace(/-/g, " ")} ·{" "}
              {working.turn.phase.replace(/^switched:/, "sides switched, ").replace(/-/g, " ")}…
            </p>
          ) : null}
        </div>

        {canControl ? <DebateControls id={view.id} status={view.status} /> : null}
        {extra}
        {view.error ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
            {view.error}
          </p>
        ) : null}
      </header>

      {panelStarted ? panel : null}

      <Section
        id="proclaim-premises"
        title="1 · What has to be true"
        help="The claim split into premises. The critic marks the ones still open after each round."
      >
        {premises.premises.length ? (
          <ul className="space-y-1 text-sm">
            {premises.premises.map((p, i) => (
              <li key={i} className="flex min-w-0 gap-2" data-testid="proclaim-premise">
                <span
                  aria-hidden
                  className={
                    p.unresolved ? "text-amber-700" : premises.criticSeen ? "text-emerald-700" : "text-black/60"
                  }
                >
                  {p.unresolved ? "○" : premises.criticSeen ? "✓" : "•"}
                </span>
                <span className="min-w-0 break-words">
                  {p.text}
                  {p.unresolved ? <span className="text-xs text-amber-800"> (still open)</span> : null}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-black/60">
            {premises.unparsed
              ? "The premises could not be read; the trial goes on over the claim as a whole."
              : "Not yet split."}
          </p>
        )}
      </Section>

      <Section
        id="proclaim-evidence-section"
        title="2 · Evidence admitted and refused"
        help={`Each passage found in the corpus is scored for relevance and credibility; weight = relevance × credibility. Above ${asObj(config).admitW ?? 0.5} it is admitted, at or below ${asObj(config).discardW ?? 0.1} refused, in between disputed (shown, not argued from).`}
      >
        {rows.pretrial.length ? (
          <p className="text-sm">
            {admitted} admitted · {disputed} disputed · {refused} refused
          </p>
        ) : null}
        <EvidenceTable rows={rows.pretrial} selected={selected} onSelect={setSelected} />
        {rows.prag.length ? (
          <details className="text-sm">
            <summary className="cursor-pointer font-medium">
              Passages found during the trial ({rows.prag.length})
            </summary>
            <div className="mt-2">
              <EvidenceTable rows={rows.prag} selected={selected} onSelect={setSelected} />
            </div>
          </details>
        ) : null}
      </Section>

      <Section
        id="proclaim-trial"
        title="3 · The trial"
        help="Counsel A argues for the claim, counsel B against. Each round they may search the corpus for something new and call an expert witness; then each rates its own argument and an independent critic reviews both."
      >
        <TrialSection trial={primary} onCite={onCite} />
      </Section>

      {switchOff ? null : (
        <Section
          id="proclaim-switched"
          title="4 · The same trial with sides switched"
          help="The counsel swap sides and argue again from the same admitted evidence. If a side argues just as well for the opposite view, its first arguments weigh less."
        >
          <TrialSection trial={switched} onCite={onCite} />
          {typeof gamma === "number" ? (
            <p className="text-sm" data-testid="proclaim-consistency">
              Consistency across the switch: <strong>{gamma}/10</strong> (an analyst compared both trials; 7 or more
              adds 0.10 to the confidence, under 5 takes 0.05 off).
            </p>
          ) : null}
        </Section>
      )}
      {panelStarted ? null : (
        <p className="text-sm text-black/60">
          The judges vote once the trial{switchOff ? "" : "s"} end{switchOff ? "s" : ""}.
        </p>
      )}
    </div>
  );
}
