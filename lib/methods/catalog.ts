/**
 * The four methods in plain words, for the /methods page: what the agents do, when they stop,
 * what to give them. Written for a journalist, not a researcher; the numbers (cost, presets, the
 * papers' results) are not written here but read from the protocols and presets themselves
 * (lib/methods/facts.ts), so this page cannot drift from what the product runs.
 */

/**
 * A paper the method was built from, cited as a reader can find it: `venue` says where it appeared
 * (an arXiv number, or that it is a submission under review), `link` is given only where the paper
 * has a public address; `year` only when the paper gives it.
 */
export type Paper = { title: string; authors: string; year?: number; venue: string; link?: string; note?: string };

export type MethodText = {
  protocol: "radar" | "tool-mad" | "zofia" | "proclaim";
  name: string;
  /** One sentence: what it is good at. */
  bestFor: string;
  /** What a fact-checker gives it. */
  input: string;
  /** Who does what, in order. */
  steps: string[];
  /** When it ends, in words. */
  stops: string;
  /** The answers it can give, and how the product reads them. */
  answers: string;
  /** What to keep in mind before trusting a result. */
  caveats: string[];
  papers: Paper[];
};

export const METHODS: readonly MethodText[] = [
  {
    protocol: "radar",
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
    stops: "Early, when both the stop agent and the provisional judge are confident enough (thresholds calibrated for the judge's model); otherwise after the closing statements.",
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
  },
  {
    protocol: "tool-mad",
    name: "Tool-MAD",
    bestFor: "Factual claims a reference source or the web can settle: who did what, when, where.",
    input: "A claim. One agent searches your corpus, the other searches the web (offline, a stand-in that searches your corpus and says so on every document).",
    steps: [
      "Each round, both agents write a search query, read what their own tool found, and answer with a label and their reasons.",
      "From the second round, each sees the other's last answer and may change its query and its mind.",
      "A scorer checks every answer: is each statement in it backed by the documents that agent found, and does the answer address the claim?",
    ],
    stops: "As soon as both agents give the same label and both answers pass the check. If they have not agreed after 3 rounds, a judge decides from the whole exchange and the check's scores.",
    answers: "The benchmark's own labels, by default SUPPORTS, REFUTES or NOT ENOUGH INFO; read as TRUE, FALSE, or no verdict.",
    caveats: [
      "The web agent needs a search provider (Tavily, Brave or SearxNG); without one its results come from your corpus and are labelled as a stand-in.",
      "Agreement ends the debate: two agents agreeing on thin evidence still ends it.",
    ],
    papers: [
      {
        title: "Tool-MAD: A Multi-Agent Debate Framework for Fact Verification with Diverse Tool Augmentation and Adaptive Retrieval",
        authors: "Seyeon Jeong, Yeonjun Choi, JongWook Kim, Beakcheol Jang",
        venue: "manuscript, Yonsei University and Sangmyung University",
        note: "the version this product follows (v2)",
      },
      {
        title: "Tool-MAD: Dynamic Multi-Agent Debate Framework with Adaptive Retrieval for Accurate and Hallucination-Resistant Fact Verification",
        authors: "anonymous ACL submission",
        venue: "anonymous ACL submission (under review)",
        note: "the earlier version (v1), available as a setting",
      },
    ],
  },
  {
    protocol: "zofia",
    name: "ZoFia",
    bestFor: "Whole news articles: is the story real or made up?",
    input: "An article: its text, headline, address and publication date (or a claim, read as a very short article).",
    steps: [
      "It finds the names and entities the article turns on and keeps the most telling ones as keywords.",
      "It searches the web for them up to the day before the article appeared, and looks each one up on Wikipedia.",
      "Five language analysts each read the article for one kind of warning sign: tone, wording, reported speech, emotion, quality of information.",
      "A subject expert reads it with the Wikipedia background; an extractor lists its claims and a verifier checks each against the search results.",
      "Then one agent argues the story is real, another that it is fake, and a judge rules after each round.",
    ],
    stops: "When the judge rules real or fake; at the fifth round the judge must choose.",
    answers: "REAL or FAKE, read as TRUE or FALSE.",
    caveats: [
      "It judges a whole article, not a single sentence in it.",
      "Without a web search provider and Wikipedia access it has far less to go on; the page says which sources it could use.",
    ],
    papers: [
      {
        title: "ZoFia: Zero-Shot Fake News Detection with Entity-Guided Retrieval and Multi-LLM Interaction",
        authors: "anonymous ACL submission",
        venue: "anonymous ACL submission (under review)",
        link: "https://anonymous.4open.science/r/ZoFia-4534/",
        note: "the link is the paper's anonymised code",
      },
    ],
  },
  {
    protocol: "proclaim",
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
    stops: "Each trial ends when the arguments stop changing, the critic finds the question resolved, new evidence runs dry or the court closes it; at most 10 rounds per trial.",
    answers: "SUPPORTED, NOT SUPPORTED or INCONCLUSIVE, read as TRUE, FALSE, or no verdict.",
    caveats: ["By far the most expensive method: over a hundred model calls per claim.", "The paper ran each claim three times and took the majority; a single run is noisier."],
    papers: [
      {
        title: "Courtroom-Style Multi-Agent Debate with Progressive RAG and Role-Switching for Controversial Claim Verification",
        authors: "Masnun Nuha Chowdhury, Nusrat Jahan Beg, Umme Hunny Khan, Syed Rifat Raiyan, Md Kamrul Hasan, Hasan Mahmud",
        year: 2026,
        venue: "arXiv:2603.28488 [cs.CL]",
        link: "https://arxiv.org/abs/2603.28488",
      },
    ],
  },
];
