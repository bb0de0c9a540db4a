import type { MethodAbout } from "../definition";

/** The method in plain words for the /methods page: written for a journalist, not a researcher. */
export const proclaimAbout: MethodAbout = {
  name: "PROClaim",
  bestFor: "Contested claims, often in health and science, where evidence points both ways.",
  input: "A claim. Evidence is searched for in your corpus as the trial goes on.",
  steps: [
    "The claim is split into testable premises, and evidence is gathered for and against; an arbiter admits only evidence that is relevant and credible.",
    "A plaintiff argues for the claim and a defence against it. Each round, each side says what evidence it is missing and searches for it; only evidence that adds something new is accepted.",
    "A court can call an expert witness. Both sides reflect on their own arguments and a critic reviews the round.",
    "Then the two sides swap roles and argue the case again, to catch verdicts that depend on who argues which side.",
    "Three judges vote independently. The confidence combines their vote, the quality of the evidence and the reflections.",
  ],
  stops:
    "Each trial ends when the arguments stop changing, the critic finds the question resolved, new evidence runs dry or the court closes it; at most 10 rounds per trial.",
  answers: "SUPPORTED, NOT SUPPORTED or INCONCLUSIVE, read as TRUE, FALSE, or no verdict.",
  caveats: [
    "By far the most expensive method: over a hundred model calls per claim.",
    "The paper ran each claim three times and took the majority; a single run is noisier.",
  ],
  papers: [
    {
      title:
        "Courtroom-Style Multi-Agent Debate with Progressive RAG and Role-Switching for Controversial Claim Verification",
      authors:
        "Masnun Nuha Chowdhury, Nusrat Jahan Beg, Umme Hunny Khan, Syed Rifat Raiyan, Md Kamrul Hasan, Hasan Mahmud",
      year: 2026,
      venue: "arXiv:2603.28488 [cs.CL]",
      link: "https://arxiv.org/abs/2603.28488",
    },
  ],
};
