import type { MethodAbout } from "../definition";

/** The method in plain words for the /methods page: written for a journalist, not a researcher. */
export const zofiaAbout: MethodAbout = {
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
};
