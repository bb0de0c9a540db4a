import type { MethodAbout } from "../definition";

/** The method in plain words for the /methods page: written for a journalist, not a researcher. */
export const radarAbout: MethodAbout = {
  name: "RADAR",
  bestFor: "Short claims that may be accurate on their face but misleading: half-truths.",
  input: "A one-sentence claim. Evidence comes from your corpus (the 20 closest passages) or is pasted by you.",
  steps: [
    "Every agent reads the same numbered evidence.",
    "A politician makes the strongest case the evidence allows, in terms of public interest.",
    "A scientist looks in the same evidence for what is missing, weakly supported or selectively framed.",
    "They each give an opening statement, answer each other once, and close.",
    "After the opening and after each answer, a stop agent and a provisional judge say whether the question is already settled.",
    "A judge reads the debate and the evidence and decides, with a reason that cites the evidence.",
  ],
  stops:
    "Early, when both the stop agent and the provisional judge are confident enough (thresholds calibrated for the judge's model); otherwise after the closing statements.",
  answers: "TRUE, HALF-TRUE or FALSE.",
  caveats: ["It only knows the evidence it is given: a thin corpus gives a thin verdict."],
  papers: [
    {
      title: "Debating the Unspoken: Role-Anchored Multi-Agent Reasoning for Half-Truth Detection",
      authors: "Yixuan Tang, Yirui Zhang, Hang Feng, Anthony K.H. Tung",
      year: 2026,
      venue: "arXiv:2604.19005 [cs.CL]",
      link: "https://arxiv.org/abs/2604.19005",
    },
  ],
};
