import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { answerStart, distributionToOptions, optionFor, scoreOptions } from "@/lib/ai/score-options";
import { readOpenAILogprobs } from "@/lib/ai/logprobs";
import { resolvedMock, textStream } from "./helpers/mock-models";

const LABELS = ["TRUE", "HALF-TRUE", "FALSE"] as const;
const messages = [{ role: "user" as const, content: "Judge the claim." }];

type Alt = [token: string, prob: number];
/** OpenAI's logprobs shape for a reply made of `tokens`, each with its alternatives. */
function openAILogprobs(tokens: Array<[token: string, alts: Alt[]]>) {
  return tokens.map(([token, alts]) => ({
    token,
    logprob: Math.log(alts.find(([t]) => t === token)?.[1] ?? 0.5),
    top_logprobs: alts.map(([t, p]) => ({ token: t, logprob: Math.log(p) })),
  }));
}

function logprobModel(tokens: Array<[string, Alt[]]>) {
  const model = new MockLanguageModelV3({
    doStream: async () =>
      textStream(
        tokens.map(([t]) => t),
        { providerMetadata: { openai: { logprobs: openAILogprobs(tokens) as never } } },
      ),
  });
  return resolvedMock(model, {
    scoring: "top-logprobs",
    logprobsOptions: (k) => ({ openai: { logprobs: k } }),
    readLogprobs: (m) => readOpenAILogprobs(m?.openai?.logprobs),
  });
}

describe("option matching", () => {
  it("credits a token to the option it begins", () => {
    expect(optionFor("HALF", LABELS)).toBe("HALF-TRUE");
    expect(optionFor(" half", LABELS)).toBe("HALF-TRUE");
    expect(optionFor("Tr", LABELS)).toBe("TRUE");
    expect(optionFor("**FALSE**", LABELS)).toBe("FALSE");
    expect(optionFor("HALF TRUE", LABELS)).toBe("HALF-TRUE");
    expect(optionFor("Maybe", LABELS)).toBeUndefined();
    expect(optionFor("  ", LABELS)).toBeUndefined();
  });

  it("finds the answer after the last marker, past markdown", () => {
    const text = "[REASON]: the [VERDICT] is clear.\n[VERDICT]: **HALF-TRUE**";
    expect(text.slice(answerStart(text, "[VERDICT]:"))).toBe("HALF-TRUE**");
    expect(answerStart("no marker here", "[VERDICT]:")).toBe(-1);
    expect(answerStart("[VERDICT]:   ", "[VERDICT]:")).toBe(-1);
  });

  it("merges multi-token labels and renormalises over the options", () => {
    const r = distributionToOptions(
      [
        { token: "HALF", prob: 0.3 },
        { token: "TRUE", prob: 0.4 },
        { token: "True", prob: 0.1 },
        { token: "FALSE", prob: 0.1 },
        { token: "The", prob: 0.1 },
      ],
      LABELS,
    )!;
    expect(r.mass).toBeCloseTo(0.9);
    expect(r.probs.TRUE).toBeCloseTo(0.5 / 0.9);
    expect(r.probs["HALF-TRUE"]).toBeCloseTo(0.3 / 0.9);
    expect(r.probs.FALSE).toBeCloseTo(0.1 / 0.9);
  });
});

describe("scoreOptions", () => {
  it("reads top logprobs at the token after the marker", async () => {
    const model = logprobModel([
      ["[REASON]: E2 omits the date.\n", [["[REASON]: E2 omits the date.\n", 1]]],
      ["[VERDICT]:", [["[VERDICT]:", 1]]],
      [
        " HALF",
        [
          [" HALF", 0.6],
          [" TRUE", 0.25],
          [" FALSE", 0.1],
          [" The", 0.05],
        ],
      ],
      ["-TRUE", [["-TRUE", 0.99]]],
    ]);
    const { call, scores } = await scoreOptions({
      model,
      purpose: "judge",
      messages,
      options: LABELS,
      marker: "[VERDICT]:",
    });
    expect(call.text).toBe("[REASON]: E2 omits the date.\n[VERDICT]: HALF-TRUE");
    expect(scores.status).toBe("scored");
    if (scores.status !== "scored") return;
    expect(scores.method).toBe("top-logprobs");
    expect(scores.emitted).toBe("HALF-TRUE");
    expect(scores.probs["HALF-TRUE"]).toBeCloseTo(0.6 / 0.95);
    expect(scores.probs.TRUE).toBeCloseTo(0.25 / 0.95);
    expect(scores.mass).toBeCloseTo(0.95);
  });

  it("handles a marker that ends inside the answer's token", async () => {
    const model = logprobModel([
      ["DECISION", [["DECISION", 1]]],
      [
        ": STOP",
        [
          [": STOP", 0.7],
          [": CONTINUE", 0.2],
          [": Let", 0.1],
        ],
      ],
    ]);
    const { scores } = await scoreOptions({
      model,
      purpose: "stop",
      messages,
      options: ["STOP", "CONTINUE"],
      marker: "DECISION:",
    });
    expect(scores).toMatchObject({ status: "scored", emitted: "STOP" });
    if (scores.status === "scored") expect(scores.probs.STOP).toBeCloseTo(0.7 / 0.9);
  });

  it("says not-found when the reply has no marker, instead of guessing", async () => {
    const model = logprobModel([["I cannot decide.", [["I cannot decide.", 1]]]]);
    const { scores } = await scoreOptions({ model, purpose: "judge", messages, options: LABELS, marker: "[VERDICT]:" });
    expect(scores.status).toBe("not-found");
  });

  it("reports unsupported for a provider without probabilities", async () => {
    const model = resolvedMock(new MockLanguageModelV3({ doStream: async () => textStream(["DECISION: STOP"]) }), {
      scoring: "none",
      provider: "anthropic",
    });
    const { scores } = await scoreOptions({
      model,
      purpose: "stop",
      messages,
      options: ["STOP", "CONTINUE"],
      marker: "DECISION:",
    });
    expect(scores).toEqual({ status: "unsupported", reason: "anthropic returns no token probabilities" });
  });

  it("falls back to sampling frequencies when declared, and names the method", async () => {
    const answers = ["DECISION: STOP", "DECISION: CONTINUE", "DECISION: STOP", "DECISION: STOP", "DECISION: nonsense"];
    let i = 0;
    const mock = new MockLanguageModelV3({ doStream: async () => textStream([answers[i++ % answers.length]!]) });
    const model = resolvedMock(mock, { scoring: "none", provider: "anthropic" });
    const { scores, samples } = await scoreOptions({
      model,
      purpose: "stop",
      messages,
      options: ["STOP", "CONTINUE"],
      marker: "DECISION:",
      fallback: { kind: "sampling", samples: 5 },
    });
    expect(samples).toHaveLength(4);
    expect(mock.doStreamCalls.slice(1).every((c) => c.temperature === 1)).toBe(true);
    expect(scores).toMatchObject({
      status: "scored",
      method: "sampling-5",
      emitted: "STOP",
      probs: { STOP: 0.75, CONTINUE: 0.25 },
      mass: 0.8,
    });
  });

  it("teacher-forces a local model up to the answer and reads its next-token distribution", async () => {
    const seen: string[] = [];
    const model = resolvedMock(
      new MockLanguageModelV3({ doStream: async () => textStream(["[REASON]: fine.\n[VERDICT]: ", "FALSE"]) }),
      {
        provider: "local",
        scoring: "next-token",
        nextTokenDistribution: async (_prompt, prefix) => {
          seen.push(prefix);
          return [
            { token: "F", prob: 0.5 },
            { token: "T", prob: 0.2 },
            { token: "H", prob: 0.1 },
            { token: "\n", prob: 0.2 },
          ];
        },
      },
    );
    const { scores } = await scoreOptions({ model, purpose: "judge", messages, options: LABELS, marker: "[VERDICT]:" });
    expect(seen).toEqual(["[REASON]: fine.\n[VERDICT]: "]);
    expect(scores).toMatchObject({ status: "scored", method: "next-token", emitted: "FALSE" });
    if (scores.status === "scored") {
      expect(scores.probs.FALSE).toBeCloseTo(0.625);
      expect(scores.mass).toBeCloseTo(0.8);
    }
  });
});
