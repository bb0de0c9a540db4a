import type { DebateView } from "@/lib/debate/view";

/** What the judge said about a debate: its verdict, its scoring turns and its checkpoints. */
export type JudgeParts = {
  verdict: DebateView["verdict"];
  working: DebateView["turns"];
  checkpoints: DebateView["checkpoints"];
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
    checkpoints: [],
    turns: view.turns.filter((t) => t.kind === "speech").map((t) => ({ ...t, scores: null })),
  };
}

export function judgeParts(view: DebateView): JudgeParts {
  return {
    verdict: view.verdict,
    working: view.turns.filter((t) => t.kind !== "speech" && t.status === "completed"),
    checkpoints: view.checkpoints,
  };
}
