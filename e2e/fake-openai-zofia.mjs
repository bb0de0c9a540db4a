// ZoFia's answers for the scripted model server (e2e/fake-openai.mjs): every ZoFia prompt ends in a
// "Format (zofia/<template>)" line (lib/debate/zofia/prompts/*.md), and the answer is shaped for it. The story:
// an article claims a governor's charity auction was for flood families; the linguist finds the
// emotion and word choice fake-leaning, the verifier refutes the core claim with one verbatim and
// one invented quote, and the judge says "continue" after round 1 and "fake" after round 2, so the
// e2e sees two exchanges, a judge's call with probabilities after each, and a verdict of FAKE.
// An article containing "SLOW" streams 8x slower, so a test can reload while the debate runs.

const words = (t) => t.match(/\S+\s*/g) ?? [];
const last = (text, re) => [...text.matchAll(re)].at(-1);

const LINGUIST = {
  sentence: ["Short exclamatory sentences and a breathless tone throughout the piece.", "FAKE"],
  word: ['Superlatives such as "heroic" and "unprecedented" with vague sources like "insiders".', "FAKE"],
  grammar: ["Reported speech without named speakers; little passive voice or negation.", "UNCLEAR"],
  emotion: ["Emotive words dominate; the headline is built to shock.", "FAKE"],
  "information-quality": ["Names, amounts and places are given, but no dates or documents.", "REAL"],
};

export function zofiaAnswer(user, _system, slow) {
  const template = last(user, /Format \(zofia\/([a-z-]+)\)/g)?.[1];
  switch (template) {
    case "linguist": {
      const dim = last(user, /DIMENSION:\s*([a-z-]+)/g)?.[1] ?? "sentence";
      const [text, lean] = LINGUIST[dim] ?? LINGUIST.sentence;
      return { slow, pieces: words(`${text}\nLEANS: ${lean}`), alts: [] };
    }
    case "domain":
      return { slow, pieces: ["ROLE:", " public finance reporter"], alts: [] };
    case "expert":
      return {
        slow,
        speech: true,
        pieces: words(
          "- Knowledge concordance: the sums match a 2019 hospital gala, not any flood fundraiser on record.\n- Logical integrity: the article moves the 2019 auction to 2025 without saying how.",
        ),
        alts: [],
      };
    case "claims":
      return {
        slow,
        pieces: [
          JSON.stringify({
            core: "Governor Elena Marsh raised $2.4 million at a charity auction for Cedar River flood families.",
            sub: [
              "The auction took place after the Cedar River floods.",
              "The money went to families whose homes flooded.",
            ],
          }),
        ],
        alts: [],
      };
    case "verify": {
      // Quote the first context sentence verbatim (found in the context) and one invented line (not found).
      const first = last(user, /^\s*1\.\s+(.+)$/gm)?.[1]?.trim() ?? "";
      const quote = first.split(/\s+/).slice(0, 8).join(" ");
      return {
        slow,
        pieces: words(
          `[LABEL]: REFUTES\n[REASON]: The context ties the $2.4 million to a 2019 hospital gala.\n[QUOTES]:\n${quote}\nMarsh held a flood auction in April`,
        ),
        alts: [],
      };
    }
    case "debater": {
      const side = last(user, /SIDE:\s*(REAL|FAKE)/g)?.[1] ?? "REAL";
      const later = last(user, /TURN:\s*(\w+)/g)?.[1] !== "first";
      const text =
        side === "REAL"
          ? `${later ? "My opponent reads too much into the date; the governor did raise money for good causes.\n" : ""}- The governor raised $2.4 million at an auction (web [E1]): the amount in the article is real.\n- The governor runs a flood relief fund (web): helping flood families fits her record.`
          : `${later ? "The advocate admits the auction was in 2019; that alone breaks the article's story.\n" : ""}- The $2.4 million came from a 2019 hospital gala (web [E1]): the article moves it to the floods.\n- The claim verifier refuted the core claim (verifier report): the quotes do not support the article.`;
      return { slow, speech: true, pieces: words(text), alts: [] };
    }
    case "judge": {
      // "round N of at most M": continue after round 1, fake after that.
      const round = Number(last(user, /round (\d+) of at most/g)?.[1] ?? 1);
      if (round < 2)
        return {
          slow,
          pieces: ["I"],
          alts: [
            [
              ["I", 0.6],
              ["F", 0.3],
              ["R", 0.1],
            ],
          ],
        };
      return {
        slow,
        pieces: ["F"],
        alts: [
          [
            ["F", 0.85],
            ["I", 0.1],
            ["R", 0.05],
          ],
        ],
      };
    }
    case "judge-final":
      return {
        slow,
        pieces: ["F"],
        alts: [
          [
            ["F", 0.7],
            ["R", 0.3],
          ],
        ],
      };
    default:
      return null;
  }
}
