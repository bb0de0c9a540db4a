import type { DebateView } from "@/lib/debate/view";
import { decisionWithoutVerdicts, earlierCheckText } from "@/lib/matching/decision";
import type { ClaimMatch } from "@/lib/matching/types";

/** What the judge said about a debate: its verdict, its scoring turns and the method's notes (RADAR's checkpoints). */
export type JudgeParts = {
  verdict: DebateView["verdict"];
  working: DebateView["turns"];
  notes: DebateView["notes"];
};

/**
 * The debate as an annotator sees it before labelling: the debaters' speeches and the evidence,
 * with everything that carries the judge's opinion taken out, so the page (and the data sent to
 * the browser) cannot anchor the label. Scores on speeches are the judge's too.
 */
export function withoutJudge(view: DebateView): DebateView {
  return {
    ...view,
    verdict: null,
    // A method's notes are the judge's scores between rounds (RADAR's checkpoints): none before the label.
    notes: [],
    turns: view.turns.filter((t) => t.kind === "speech").map((t) => ({ ...t, scores: null })),
    // An earlier check's rating is a verdict on this claim: matched before the start, or attached as evidence.
    matchDecision: view.matchDecision ? decisionWithoutVerdicts(view.matchDecision) : null,
    evidence: view.evidence.map((e) => {
      if (e.source !== "earlier-check") return e;
      const match = e.metadata?.match as ClaimMatch | undefined;
      const text = match?.claim
        ? earlierCheckText(match, { rating: false })
        : "An earlier fact-check, hidden until you have labelled this debate.";
      return { ...e, text, metadata: null };
    }),
  };
}

export function judgeParts(view: DebateView): JudgeParts {
  return {
    verdict: view.verdict,
    working: view.turns.filter((t) => t.kind !== "speech" && t.status === "completed"),
    notes: view.notes,
  };
}
