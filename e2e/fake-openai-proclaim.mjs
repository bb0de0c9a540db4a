// PROClaim's answers for the scripted model server (e2e/fake-openai.mjs): every PROClaim prompt ends
// in a "Format (proclaim/<template>):" line (lib/debate/proclaim/prompts/*.md) and the answer is shaped for it.
// The story, on the demo corpus: the claim is split into three premises; the arbiter admits about a
// third of the passages, disputes a third and refuses a third (by a hash of the passage, so the
// same passage is always weighed alike); counsel for the claim calls an expert in round 1; both
// sides rate themselves the same each round, so the scores plateau in round 2 and each trial stops
// there; after the switch, the panel's three judges write slowly (so a test sees them streaming at
// once) and vote 2–1 NOT SUPPORTED.

const words = (t) => t.match(/\S+\s*/g) ?? [];
const format = (user) => [...user.matchAll(/Format \(proclaim\/([a-z-]+)\):/g)].at(-1)?.[1];
const roundOf = (user) => Number(/Round (\d+)/.exec(user)?.[1] ?? 0);
const hash = (s) => [...s].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
let panelCalls = 0;

const VERDICTS = [
  {
    v: "NOT SUPPORTED",
    e: 8,
    a: 7,
    r: 8,
    why: "The admitted reports [E1] place the $2.4 million auction in 2019 and give the money to a hospital, not to flood families.",
  },
  {
    v: "NOT SUPPORTED",
    e: 7,
    a: 7,
    r: 7,
    why: "No admitted passage links the auction to the Cedar River floods; the defense's reading of [E1] holds.",
  },
  {
    v: "SUPPORTED",
    e: 5,
    a: 6,
    r: 5,
    why: "The auction and the sum are confirmed [E1]; the purpose is disputed but not disproved.",
  },
];

export function proclaimAnswer(user, system) {
  const forSide = system.includes("plaintiff counsel");
  switch (format(user)) {
    case "premises":
      return {
        pieces: words(
          "Elena Marsh held a charity auction.\nThe auction raised $2.4 million.\nThe money went to Cedar River flood families.",
        ),
        alts: [],
      };
    case "stance-query":
      return {
        pieces: words(
          forSide ? "QUERY: Elena Marsh charity auction flood" : "QUERY: Elena Marsh auction hospital 2019",
        ),
        alts: [],
      };
    case "negotiation":
      return {
        pieces: [
          JSON.stringify({ disclose: ["C1"], challenge: ["C2"], note: "C1 is the best report of the auction." }),
        ],
        alts: [],
      };
    case "admissibility": {
      // The passage without its fence (whose id differs per debate), so a passage is always weighed alike.
      const passage = /<<evidence[^>]*>>([\s\S]*?)<<\/evidence/.exec(user)?.[1] ?? user;
      const band = hash(passage) % 3;
      const [relevance, credibility, reason] =
        band === 0
          ? [0.9, 0.8, "A dated news report on the auction itself."]
          : band === 1
            ? [0.6, 0.5, "Related, but says nothing about where the money went."]
            : [0.2, 0.3, "Off the question: a different event."];
      return { pieces: [JSON.stringify({ relevance, credibility, reason })], alts: [] };
    }
    case "gap":
      return {
        pieces: words(
          forSide
            ? "NEED: a record that the auction money reached flood families"
            : "NEED: the date and beneficiary of the auction",
        ),
        alts: [],
      };
    // The search helper and the court speak for no side: the need's side, then the query's words, say whose search it is.
    case "prag-query":
      return {
        pieces: words(
          /Need \(for/.test(user)
            ? "QUERY: Cedar River flood relief donations"
            : "QUERY: Marsh gala hospital donation 2019",
        ),
        alts: [],
      };
    case "refine":
      return {
        pieces: words(
          user.includes("flood relief donations")
            ? "QUERY: Cedar River flood relief fund donations Marsh"
            : "QUERY: Elena Marsh 2019 hospital gala auction",
        ),
        alts: [],
      };
    case "argument":
      return {
        speech: true,
        pieces: words(
          forSide
            ? `Round ${roundOf(user)}, for the claim: the auction took place and raised $2.4 million [E1]. Nothing admitted says the families did not benefit.`
            : `Round ${roundOf(user)}, against the claim: the same report [E1] dates the auction to 2019 and names a hospital as the beneficiary, years before the floods.`,
        ),
      };
    case "expert-request":
      return {
        pieces: [
          forSide && roundOf(user) === 1
            ? JSON.stringify({
                expert_type: "charity finance auditor",
                reasoning: "to say where auction proceeds are recorded",
              })
            : "NONE",
        ],
        alts: [],
      };
    case "expert-ruling":
      return { pieces: words("The auditor bears on the third premise.\nRULING: GRANTED"), alts: [] };
    case "expert-persona":
      return {
        pieces: [
          JSON.stringify({
            role: "Charity finance auditor",
            expertise: ["charity accounts", "auctions", "public filings"],
            system_prompt: "You are an auditor of charity accounts; answer from the filings only.",
          }),
        ],
        alts: [],
      };
    case "testimony":
      return {
        speech: true,
        pieces: words(
          "Auction proceeds appear in the charity's filings; the admitted report [E1] names the hospital foundation, not a flood fund.",
        ),
      };
    case "reflection":
      return {
        pieces: [
          JSON.stringify({
            scores: { logic: 0.7, novelty: 0.5, rebuttal: 0.6 },
            flaws_identified: ["the date is not addressed"],
            discovery_need: "the beneficiary of the auction",
            refined_stance: "unchanged",
          }),
        ],
        alts: [],
      };
    case "critic":
      return {
        pieces: [
          JSON.stringify({
            plaintiff: { logic: 6, evidence: 5, rebuttal: 4, reasoning: "Leans on the sum, avoids the date." },
            defense: { logic: 7, evidence: 7, rebuttal: 6, reasoning: "Uses the date and beneficiary well." },
            unresolved_premises: ["The money went to Cedar River flood families."],
            recommendations: {
              plaintiff: "find the beneficiary",
              defense: "quote the date",
              queries: ["Cedar River flood fund"],
            },
            debate_resolved: false,
          }),
        ],
        alts: [],
      };
    case "court-close":
      return {
        pieces: ["The record is complete.\n", "DECISION:", " CONTINUE"],
        alts: [
          null,
          null,
          [
            [" CONTINUE", 0.7],
            [" CLOSE", 0.3],
          ],
        ],
      };
    case "consistency":
      return {
        pieces: [
          JSON.stringify({
            agent_a_analysis: "Argued both sides from the same report.",
            agent_b_analysis: "Consistent across the switch.",
            contradictions: [],
            score: 8,
          }),
        ],
        alts: [],
      };
    case "panel-judge": {
      const j = VERDICTS[panelCalls++ % 3];
      const text = JSON.stringify({
        claim_summary: "Whether a 2.4 million dollar auction was for flood families.",
        evidence_strength: j.e,
        argument_validity: j.a,
        scientific_reliability: j.r,
        verdict: j.v,
        reasoning: j.why,
      });
      // Slow and in many pieces: the three judges are seen writing at the same time.
      return { slow: true, pieces: text.match(/.{1,6}/gs), alts: [] };
    }
    default:
      return null;
  }
}
