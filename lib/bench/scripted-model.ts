import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart, SharedV3ProviderMetadata } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { ResolvedModel } from "@/lib/ai/registry";
import { readOpenAILogprobs } from "@/lib/ai/logprobs";
import { parseModelId } from "@/lib/ai/model-id";

/**
 * A scripted debate participant: answers each RADAR prompt in the expected shape and reports
 * token logprobs the way OpenAI does, so that stopping and scoring run for real. A measuring
 * instrument for tests and benchmarks: nothing in the app can select it.
 */

function textStream(
  chunks: string[],
  opts: {
    input: number;
    output: number;
    providerMetadata?: SharedV3ProviderMetadata;
    delayMs?: number;
    firstDelayMs?: number;
  },
) {
  const parts: LanguageModelV3StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
    { type: "text-end", id: "t" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: opts.input, noCache: opts.input, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: opts.output, text: opts.output, reasoning: 0 },
      },
      providerMetadata: opts.providerMetadata,
    },
  ];
  return {
    stream: simulateReadableStream({
      chunks: parts,
      initialDelayInMs: opts.firstDelayMs ?? null,
      chunkDelayInMs: opts.delayMs ?? null,
    }),
  };
}
export type Script = {
  /** Probability the stop agent puts on STOP (the rest on CONTINUE). */
  pStop?: number;
  /** The label the judge writes and the probability it puts on it (the rest split evenly). */
  verdict?: "TRUE" | "HALF-TRUE" | "FALSE";
  verdictProb?: number;
  /** Replace the judge's answer (e.g. something unparseable). */
  judgeText?: string;
  /** The answer to the one repair request (default: a well-formed FALSE). */
  repairText?: string;
  /** Per-token delay, to make cancellation and streaming observable. */
  delayMs?: number;
  /** Delay before the first token (a model's time to first token). */
  firstDelayMs?: number;
  /** No logprobs at all, like Anthropic. */
  noLogprobs?: boolean;
  /** Throw this on the n-th call (1-based). */
  failOnCall?: { n: number; error: Error };
  /** How the Tool-MAD agents, scorer and judge answer (default: every agent agrees on the first label and is faithful and on topic). */
  toolMad?: ToolMadScript;
  /** How ZoFia's judge answers (default: continue after round 1, FAKE after round 2). */
  zofia?: ZofiaScript;
  /** The provider-limit key (default: one of its own, so scripted models never queue behind each other); tests of shared limits give one. */
  limitKey?: string;
  /** Told each call's start and end (performance.now() of this process) when its stream ends: tests measure calls at once across processes. */
  onCallEnd?: (t0: number, t1: number) => void;
};

export type ZofiaScript = {
  /** The judge's letter per round (R, F or I; the last repeats); judge-final answers `final`. */
  judge?: Array<"R" | "F" | "I">;
  final?: "R" | "F";
};

export type ToolMadAgentKind = "rag" | "search" | "vanilla";

/** One round of a scripted Tool-MAD debate: each agent kind's label (an index into the prompt's label list) and which answers fail the gate. */
export type ToolMadRound = {
  labels?: Partial<Record<ToolMadAgentKind, number>>;
  /** Agents whose answer holds a statement their documents do not support (faithfulness 1/2, below τ_F = 0.7). */
  unfaithful?: ToolMadAgentKind[];
  /** Agents whose answer reads as off topic: the relevance questions share no words with the claim. */
  offTopic?: ToolMadAgentKind[];
};

export type ToolMadScript = {
  /** The claim: relevant answers yield relevance questions that restate it (high cosine under any encoder). */
  claim?: string;
  /** Round r uses rounds[r-1] (the last one repeats); an agent's round is how many answers it has given. */
  rounds?: ToolMadRound[];
  /** The judge's label, an index into the label list. */
  judge?: number;
};

export function promptText(options: LanguageModelV3CallOptions): { system: string; user: string } {
  let system = "";
  let user = "";
  for (const m of options.prompt) {
    if (m.role === "system") system += m.content;
    if (m.role === "user") user += m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
  }
  return { system, user };
}

function tokens(text: string) {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

export function scriptedModel(id: string, script: Script = {}) {
  let calls = 0;
  // Time spent inside the model (call to last chunk), so a benchmark can subtract it.
  let modelMs = 0;
  // CPU (ms) this stand-in spent choosing and building its answers: a provider's work, done on its
  // servers in production, so the bench takes it out of the runner's CPU. The stream's delivery
  // (the AI SDK reading it) is left in: a real provider's stream costs the runner that too.
  let ownCpuMs = 0;
  // Each call's [start, end] on performance.now()'s clock: overlapping calls (parallel branches) must not count twice.
  const intervals: Array<[number, number]> = [];
  const seen: Array<{ system: string; user: string }> = [];
  // Answers (and queries) given so far per Tool-MAD agent: its count is the agent's round.
  const answersSoFar = new Map<string, number>();
  // PROClaim answers by how many times each template has been asked (the n-th P-RAG query, the n-th panel ballot).
  const proclaimSoFar = new Map<string, number>();
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      calls++;
      if (script.failOnCall?.n === calls) throw script.failOnCall.error;
      const p = promptText(options);
      seen.push(p);
      let pieces: string[];
      let alternatives: Array<Array<[string, number]>> = [];
      const toolMad =
        toolMadAnswer(p, script.toolMad ?? {}, answersSoFar) ??
        zofiaAnswer(p, script.zofia ?? {}) ??
        proclaimAnswer(p, proclaimSoFar);
      if (toolMad) {
        pieces = toolMad.pieces;
        alternatives = toolMad.alternatives ?? [];
      } else if (p.user.includes("DECISION: <CONTINUE or STOP>")) {
        const pStop = script.pStop ?? 0.5;
        const choice = pStop >= 0.5 ? " STOP" : " CONTINUE";
        pieces = ["DECISION:", choice];
        alternatives = [
          [["DECISION:", 1]],
          [
            [" STOP", pStop],
            [" CONTINUE", 1 - pStop],
          ],
        ];
      } else if (p.user.includes("[VERDICT]: <TRUE, FALSE or HALF-TRUE>") && !p.user.includes("Your previous answer")) {
        const label = script.verdict ?? "HALF-TRUE";
        const prob = script.verdictProb ?? 0.8;
        const others = ["TRUE", "HALF-TRUE", "FALSE"].filter((l) => l !== label);
        const reason = `[REASON]: The claim omits when it happened [E1].\n`;
        if (script.judgeText !== undefined) {
          pieces = tokens(script.judgeText);
        } else {
          pieces = [reason, "[VERDICT]:", ` ${label}`];
          alternatives = [
            [[reason, 1]],
            [["[VERDICT]:", 1]],
            [[` ${label}`, prob], ...others.map((o) => [` ${o}`, (1 - prob) / 2] as [string, number])],
          ];
        }
      } else if (p.user.includes("Your previous answer")) {
        pieces = tokens(script.repairText ?? "[REASON]: restated.\n[VERDICT]: FALSE");
      } else if (p.user.includes("DOMAIN: <field>")) {
        pieces = ["DOMAIN: Economy"];
      } else {
        const role = /You are (an? [a-z ]+?)(?: taking| arguing|\.)/i.exec(p.system)?.[1] ?? "a debater";
        pieces = tokens(`As ${role}, I rely on the evidence [E1] and note what [E2] leaves out.`);
      }
      const logprobs = script.noLogprobs
        ? undefined
        : pieces.map((tok, i) => {
            const alts = alternatives[i] ?? [[tok, 1]];
            return {
              token: tok,
              logprob: Math.log(alts.find(([t]) => t === tok)?.[1] ?? 1),
              top_logprobs: alts.map(([t, pr]) => ({ token: t, logprob: Math.log(pr) })),
            };
          });
      const { stream } = textStream(pieces, {
        input: Math.ceil(p.user.length / 4),
        output: pieces.length,
        delayMs: script.delayMs,
        firstDelayMs: script.firstDelayMs,
        providerMetadata: logprobs ? { openai: { logprobs: logprobs as never } } : undefined,
      });
      const cpu = process.cpuUsage(cpu0);
      ownCpuMs += (cpu.user + cpu.system) / 1000;
      return {
        stream: stream.pipeThrough(
          new TransformStream({
            flush() {
              const t1 = performance.now();
              modelMs += t1 - t0;
              intervals.push([t0, t1]);
              script.onCallEnd?.(t0, t1);
            },
          }),
        ),
      };
    },
  });
  const resolved: ResolvedModel = {
    id,
    ref: parseModelId(id),
    provider: "openai",
    limitKey: script.limitKey ?? `scripted:${id}:${Math.random()}`,
    model,
    scoring: script.noLogprobs ? "none" : "top-logprobs",
    logprobsOptions: (k) => ({ openai: { logprobs: k } }),
    readLogprobs: (m) => readOpenAILogprobs(m?.openai?.logprobs),
  };
  return {
    resolved,
    seen,
    calls: () => calls,
    modelMs: () => modelMs,
    intervals: () => intervals,
    ownCpuMs: () => ownCpuMs,
  };
}

/** The labels a Tool-MAD prompt offers, from its format line ("<one of A / B / C>"). */
function offeredLabels(user: string): string[] {
  const m = /<one of ([^>]+)>/.exec(user.slice(user.lastIndexOf("Format (tool-mad/")));
  return m ? m[1]!.split(" / ").map((l) => l.trim()) : ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"];
}

function agentKind(system: string): ToolMadAgentKind {
  if (system.includes("document collection")) return "rag";
  if (system.includes("web search")) return "search";
  return "vanilla";
}

const UNSUPPORTED = "(scripted: a statement its documents do not support)";
const OFF_TOPIC = "(scripted: off topic)";

/**
 * Tool-MAD's prompts, recognised by their format line: queries, answers with a label, the
 * scorer's JSON (statements, verdicts, questions) and the judge. Deterministic: an agent's answer
 * in round r follows `script.rounds[r-1]`, and the scorer reads the scripted tags in the answer.
 */
function toolMadAnswer(
  p: { system: string; user: string },
  script: ToolMadScript,
  counts: Map<string, number>,
): { pieces: string[]; alternatives?: Array<Array<[string, number]>> } | null {
  const format = /Format \(tool-mad\/([a-z-]+)\):/.exec(p.user)?.[1];
  if (!format) return null;
  const labels = offeredLabels(p.user);
  const claim = script.claim ?? "The boxer sold his Olympic medal to help children in the 2022 war.";
  const next = (key: string) => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };
  switch (format) {
    case "query": {
      const kind = agentKind(p.system);
      const r = next(`query:${kind}`);
      // The query changes from round to round, as an agent chasing what is still open would.
      return {
        pieces: tokens(`QUERY: boxer Olympic medal ${["sold", "auction 2012", "children war 2022"][(r - 1) % 3]}`),
      };
    }
    case "answer": {
      const kind = agentKind(p.system);
      const r = next(`answer:${kind}`);
      const rounds = script.rounds ?? [];
      const plan = rounds[Math.min(r, rounds.length) - 1] ?? {};
      const label = labels[Math.min(labels.length - 1, plan.labels?.[kind] ?? 0)]!;
      const tags = [plan.unfaithful?.includes(kind) ? UNSUPPORTED : "", plan.offTopic?.includes(kind) ? OFF_TOPIC : ""]
        .filter(Boolean)
        .join(" ");
      return {
        pieces: tokens(
          `[REASON]: In round ${r} the ${kind} agent reads that the medal was auctioned in 2012 [E1]. ${tags}\n[ANSWER]: ${label}`,
        ),
      };
    }
    case "repair-label":
      return {
        pieces: tokens(
          `[REASON]: restated.\n${/last line "(\[[A-Z]+\]:) </.exec(p.user)?.[1] ?? "[ANSWER]:"} ${labels[0]}`,
        ),
      };
    case "statements": {
      const statements = ["The medal was auctioned in 2012.", "The proceeds went to a children's hospital."];
      if (p.user.includes(UNSUPPORTED)) statements[1] = `The sale paid for aid in the 2022 war. UNSUPPORTED`;
      return { pieces: tokens(JSON.stringify({ statements })) };
    }
    case "verdicts": {
      const listed = [...p.user.matchAll(/^\d+\. (.*)$/gm)].map((m) => m[1]!.trim());
      const verdicts = listed.map((statement) => ({
        statement,
        verdict: statement.includes("UNSUPPORTED") ? 0 : 1,
        reason: statement.includes("UNSUPPORTED") ? "No document says so." : "Document [E1] says so.",
      }));
      return { pieces: tokens(JSON.stringify(verdicts)) };
    }
    case "questions": {
      const n = Number(/write (\d+) different questions/.exec(p.user)?.[1] ?? 3);
      const off = p.user.includes(OFF_TOPIC);
      const questions = Array.from({ length: n }, (_, i) =>
        off
          ? ["What is the weather in Paris today?", "Which team won the cup final?", "How tall is the tower?"][i % 3]!
          : `${claim}${"?".repeat(i + 1)}`,
      );
      return { pieces: tokens(JSON.stringify({ questions, noncommittal: false })) };
    }
    case "judge": {
      const label = labels[Math.min(labels.length - 1, script.judge ?? 0)]!;
      const reason = "[REASON]: The agents' documents show the auction was in 2012 [E1].\n";
      const others = labels.filter((l) => l !== label);
      return {
        pieces: [reason, "[VERDICT]:", ` ${label}`],
        alternatives: [
          [[reason, 1]],
          [["[VERDICT]:", 1]],
          [[` ${label}`, 0.8], ...others.map((o) => [` ${o}`, 0.2 / others.length] as [string, number])],
        ],
      };
    }
    default:
      return null;
  }
}

const ZOFIA_LINGUIST: Record<string, [string, "REAL" | "FAKE" | "UNCLEAR"]> = {
  sentence: ["Short declarative sentences with a neutral news register.", "REAL"],
  word: ['A few loaded words ("heroic", "sold out") but mostly plain vocabulary.', "UNCLEAR"],
  grammar: ["Reported speech with a named source; no unusual passive voice or negation.", "REAL"],
  emotion: ["The headline leans on sympathy for displaced children.", "FAKE"],
  "information-quality": ["Names and a place are given, but the date of the sale is not.", "UNCLEAR"],
};

/**
 * ZoFia's prompts, recognised by their `Format (zofia/...)` line, answered with texts of a
 * realistic length (so the output tokens per article say something about the paper's 400–1,200
 * budget): five linguists, the domain and expert, the claims JSON, verifications quoting the first
 * context sentence word for word, debaters, and a judge that follows `script.judge` per round.
 */
function zofiaAnswer(
  p: { system: string; user: string },
  script: ZofiaScript,
): { pieces: string[]; alternatives?: Array<Array<[string, number]>> } | null {
  const format = [...p.user.matchAll(/Format \(zofia\/([a-z-]+)\):/g)].at(-1)?.[1];
  if (!format) return null;
  const letter = (chosen: string, options: string[]) => ({
    pieces: [chosen],
    alternatives: [
      [
        [chosen, 0.8] as [string, number],
        ...options.filter((o) => o !== chosen).map((o) => [o, 0.2 / (options.length - 1)] as [string, number]),
      ],
    ],
  });
  switch (format) {
    case "linguist": {
      const dim = [...p.user.matchAll(/DIMENSION:\s*([a-z-]+)/g)].at(-1)?.[1] ?? "sentence";
      const [text, lean] = ZOFIA_LINGUIST[dim] ?? ZOFIA_LINGUIST.sentence!;
      return { pieces: tokens(`${text}\nLEANS: ${lean}`) };
    }
    case "domain":
      return { pieces: tokens("ROLE: sports charity reporter") };
    case "expert":
      return {
        pieces: tokens(
          "- Knowledge concordance: boxers have auctioned Olympic medals for charity before, and the Red Cross did appeal for children displaced by the 2022 war; nothing known places this sale in 2022.\n- Logical integrity: the article joins a medal sale and a war appeal without saying when the sale happened or who bought the medal.",
        ),
      };
    case "claims":
      return {
        pieces: tokens(
          JSON.stringify({
            core: "Oleksandr Petrenko sold his Olympic gold medal to help children displaced by the 2022 war.",
            sub: ["The sale took place in Kyiv.", "The Red Cross received the money.", "The medal was sold in 2022."],
          }),
        ),
      };
    case "verify": {
      const first = [...p.user.matchAll(/^\s*1\.\s+(.+)$/gm)].at(-1)?.[1]?.trim() ?? "";
      return {
        pieces: tokens(
          `[LABEL]: REFUTES\n[REASON]: The context dates the auction to 2012, years before the war.\n[QUOTES]:\n${first}`,
        ),
      };
    }
    case "debater": {
      const side = [...p.user.matchAll(/SIDE:\s*(REAL|FAKE)/g)].at(-1)?.[1] ?? "REAL";
      const later = [...p.user.matchAll(/TURN:\s*(\w+)/g)].at(-1)?.[1] !== "first";
      const rebuttal = later
        ? side === "REAL"
          ? "My opponent treats a missing date as proof of invention; the sale and the appeal are both on record.\n"
          : "The advocate never shows a sale in 2022; the only dated auction is from 2012.\n"
        : "";
      const points =
        side === "REAL"
          ? "- The boxer did auction his Olympic medal for children (web [E1]): the core of the article is true.\n- The Red Cross appealed for displaced children in 2022 (web [E2]): the cause the article names existed."
          : "- The medal auction happened in 2012 (web [E1]): the article moves it to the 2022 war.\n- The claim verifier refuted the core claim (verifier report): the dates do not match.";
      return { pieces: tokens(`${rebuttal}${points}`) };
    }
    case "judge": {
      const round = Number([...p.user.matchAll(/round (\d+) of at most/g)].at(-1)?.[1] ?? 1);
      const plan = script.judge ?? ["I", "F"];
      return letter(plan[Math.min(round, plan.length) - 1] ?? "I", ["R", "F", "I"]);
    }
    case "judge-final":
      return letter(script.final ?? "F", ["R", "F"]);
    default:
      return null;
  }
}

/** The bench passages' titles and texts the scripted arbiter recognises (lib/bench/protocols.ts corpusRecords). */
// "budget document": the passage a person moves in tests/integration/interventions.test.ts, which the court admits.
const PROCLAIM_ADMIT = /Fact check|auctioned his Olympic gold medal|budget document/;
const PROCLAIM_DISCARD = /Background passage/;
/** P-RAG's needs and queries in the order asked: each a different angle, so some results are new to the pool and some are not. */
const PROCLAIM_QUERIES = [
  "boxer Olympic medal auction date",
  "children displaced 2022 war donations",
  "athletes sold medals for charity record price",
  "Red Cross Kyiv appeal children 2022",
  "medal auction proceeds hospital",
];

/**
 * PROClaim's prompts, recognised by their last `Format (proclaim/...)` line, answered as a short
 * realistic trial on the bench claim: two premises; the arbiter admits the dated reports, disputes
 * the related ones and discards the filler; in round 1 each counsel asks P-RAG for a new angle
 * (some results novel enough, some not), in round 2 neither needs more; one expert
 * is called (the first request); reflections score the same each round, so S_t plateaus in round
 * 2 (ΔS 0) and both trials stop there; the court closes in round 2 where no reflection stops it
 * (no-reflection); two judges find NOT SUPPORTED and the third INCONCLUSIVE.
 */
function proclaimAnswer(
  p: { system: string; user: string },
  counts: Map<string, number>,
): { pieces: string[]; alternatives?: Array<Array<[string, number]>> } | null {
  const format = [...p.user.matchAll(/Format \(proclaim\/([a-z-]+)\):/g)].at(-1)?.[1];
  if (!format) return null;
  const n = (counts.get(format) ?? 0) + 1;
  counts.set(format, n);
  const forSide = p.system.includes("plaintiff counsel");
  const json = (v: unknown) => ({ pieces: tokens(JSON.stringify(v)) });
  switch (format) {
    case "premises":
      return {
        pieces: tokens(
          "The boxer sold his Olympic medal.\nThe money from the sale helped children affected by the 2022 war.",
        ),
      };
    case "stance-query":
      return {
        pieces: tokens(
          forSide
            ? "The sale and the war appeal are the points to establish.\nQUERY: boxer sold Olympic medal children war"
            : "The date of the sale decides the claim.\nQUERY: medal auction 2012 hospital",
        ),
      };
    case "negotiation":
      return json({
        disclose: ["C1"],
        challenge: ["C2"],
        note: forSide ? "the charity sale supports our case" : "the fact check dates the auction",
      });
    case "admissibility": {
      // Only the passage under weighing is in this prompt: its words decide relevance and credibility.
      if (PROCLAIM_ADMIT.test(p.user))
        return json({ relevance: 0.9, credibility: 0.8, reason: "A dated report of the medal sale itself." });
      if (PROCLAIM_DISCARD.test(p.user))
        return json({
          relevance: 0.2,
          credibility: 0.4,
          reason: "General background that does not mention this sale.",
        });
      return json({ relevance: 0.6, credibility: 0.6, reason: "Related to the claim's context but not to the sale." });
    }
    case "gap":
      // Two gaps a round (one per side): round 1's retrieval fills the need, so round 2 asks for nothing (and skips P-RAG).
      if (Math.ceil(n / 2) % 2 === 0)
        return { pieces: tokens("The record now holds what this side needs.\nNEED: NONE") };
      return {
        pieces: tokens(
          `The record lacks ${forSide ? "a source tying the sale to the war" : "the auction's exact date"}.\nNEED: ${PROCLAIM_QUERIES[(n - 1) % PROCLAIM_QUERIES.length]}`,
        ),
      };
    case "prag-query":
      return { pieces: tokens(`QUERY: ${PROCLAIM_QUERIES[(n - 1) % PROCLAIM_QUERIES.length]}`) };
    case "refine":
      // The court sharpens the query the n-th P-RAG step wrote (refine always follows it).
      return { pieces: tokens(`QUERY: ${PROCLAIM_QUERIES[(n - 1) % PROCLAIM_QUERIES.length]} news`) };
    case "argument":
      return {
        pieces: tokens(
          forSide
            ? "The boxer did sell his Olympic medal, and the proceeds went to children [E1]. Aid agencies appealed for children displaced by the 2022 war [E2], which is the cause the claim names.\n\nNothing in the record says the boxer never gave to that appeal; the claim's core, a medal sold to help children, stands."
            : "The only dated sale is the 2012 auction that funded a children's hospital [E1]. The 2022 war came ten years later [E2], so the sale cannot have helped its children.\n\nThe claim moves a real charity sale into a later war: its core date is wrong.",
        ),
      };
    case "expert-request":
      return n === 1
        ? json({
            expert_type: "sports memorabilia auction historian",
            reasoning: "to date the medal sale from auction records",
          })
        : { pieces: ["NONE"] };
    case "expert-ruling":
      return { pieces: tokens("The date of the sale is the question the claim turns on.\nRULING: GRANTED") };
    case "expert-persona":
      return json({
        role: "Auction historian",
        expertise: ["sports memorabilia", "auction records", "charity sales"],
        system_prompt: "You are an auction historian who dates sales from catalogues and press reports.",
      });
    case "testimony":
      return {
        pieces: tokens(
          "Auction records place the boxer's medal sale in 2012 [E1]; I know of no later sale of the same medal. The proceeds went to a children's hospital, not to a war appeal.",
        ),
      };
    case "reflection":
      return json({
        scores: { logic: 0.7, novelty: 0.5, rebuttal: 0.6 },
        flaws_identified: ["did not address the sale's date directly"],
        discovery_need: forSide
          ? "a report linking the sale to the 2022 appeal"
          : "the auction house's record of the sale date",
        refined_stance: forSide
          ? "The sale helped children, whatever its date."
          : "The sale predates the war by ten years.",
      });
    case "critic":
      return json({
        plaintiff: { logic: 6, evidence: 5, rebuttal: 5, reasoning: "Relies on the cause, not the date." },
        defense: { logic: 7, evidence: 7, rebuttal: 6, reasoning: "The dated auction is on record." },
        unresolved_premises: ["P2"],
        recommendations: {
          plaintiff: "find a 2022 source",
          defense: "cite the fact check",
          queries: ["medal sale 2022 war"],
        },
        debate_resolved: false,
      });
    case "court-close":
      return {
        pieces: ["The record on the sale's date is complete.\n", "DECISION:", " CLOSE"],
        alternatives: [
          [["The record on the sale's date is complete.\n", 1]],
          [["DECISION:", 1]],
          [
            [" CLOSE", 0.7],
            [" CONTINUE", 0.3],
          ],
        ],
      };
    case "consistency":
      return json({
        agent_a_analysis: "Argued the dated auction on both sides without contradiction.",
        agent_b_analysis: "Relied on the appeal's cause on both sides.",
        contradictions: [],
        score: 7,
      });
    case "panel-judge": {
      const verdict = n % 3 === 0 ? "INCONCLUSIVE" : "NOT SUPPORTED";
      return json({
        claim_summary: "A boxer sold his Olympic medal to help children in the 2022 war.",
        evidence_strength: 7,
        argument_validity: 7,
        scientific_reliability: 6,
        verdict,
        reasoning:
          verdict === "INCONCLUSIVE"
            ? "The sale is real but the record cannot rule out a second gift."
            : "The only dated sale is the 2012 auction, ten years before the war [E1].",
      });
    }
    default:
      return null;
  }
}
