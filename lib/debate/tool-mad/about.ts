import type { MethodAbout } from "../definition";

/** The method in plain words for the /methods page: written for a journalist, not a researcher. */
export const toolMadAbout: MethodAbout = {
  name: "Tool-MAD",
  bestFor: "Factual claims a reference source or the web can settle: who did what, when, where.",
  input:
    "A claim. One agent searches your corpus, the other searches the web (offline, a stand-in that searches your corpus and says so on every document).",
  steps: [
    "Each round, both agents write a search query, read what their own tool found, and answer with a label and their reasons.",
    "From the second round, each sees the other's last answer and may change its query and its mind.",
    "A scorer checks every answer: is each statement in it backed by the documents that agent found, and does the answer address the claim?",
  ],
  stops:
    "As soon as both agents give the same label and both answers pass the check. If they have not agreed after 3 rounds, a judge decides from the whole exchange and the check's scores.",
  answers:
    "The benchmark's own labels, by default SUPPORTS, REFUTES or NOT ENOUGH INFO; read as TRUE, FALSE, or no verdict.",
  caveats: [
    "The web agent needs a search provider (Tavily, Brave or SearxNG); without one its results come from your corpus and are labelled as a stand-in.",
    "Agreement ends the debate: two agents agreeing on thin evidence still ends it.",
  ],
  papers: [
    {
      title:
        "Tool-MAD: A Multi-Agent Debate Framework for Fact Verification with Diverse Tool Augmentation and Adaptive Retrieval",
      authors: "Seyeon Jeong, Yeonjun Choi, JongWook Kim, Beakcheol Jang",
      venue: "manuscript, Yonsei University and Sangmyung University",
      note: "the version this product follows (v2)",
    },
    {
      title:
        "Tool-MAD: Dynamic Multi-Agent Debate Framework with Adaptive Retrieval for Accurate and Hallucination-Resistant Fact Verification",
      authors: "anonymous ACL submission",
      venue: "anonymous ACL submission (under review)",
      note: "the earlier version (v1), available as a setting",
    },
  ],
};
