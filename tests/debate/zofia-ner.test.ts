import { describe, expect, it } from "vitest";
import { groupUnits } from "@/lib/debate/zofia/ner-units";
import { splitSentences } from "@/lib/debate/zofia/sentences";
import { RULE_CONFIDENCE, ruleNer, RULE_NER_LABEL } from "@/lib/tools/ner";

const PARAGRAPH =
  "Senator Elizabeth Warren met Apple executives in Boston on Monday. The United Nations said Warren's plan would help Kenya. Microsoft Corporation declined to comment.";

describe("rule-based NER (offline default)", () => {
  it("finds people, places and organisations with the spec's heuristic confidences, and says they are heuristic", async () => {
    const ner = ruleNer();
    expect(ner).toMatchObject({ id: "rule", heuristic: true, label: RULE_NER_LABEL });
    expect(RULE_NER_LABEL).toBe("rule-based NER, heuristic confidence");
    const units = groupUnits(await ner.recognise(PARAGRAPH), PARAGRAPH, splitSentences(PARAGRAPH));
    const by = Object.fromEntries(units.map((u) => [u.text, [u.type, u.confidence, u.sentence]]));
    // The title is part of the person, not a separate name (tests/fixtures/ner/README.md).
    expect(by["Senator Elizabeth Warren"]).toEqual(["PER", RULE_CONFIDENCE.typed, 0]);
    expect(by["Boston"]).toEqual(["LOC", 1, 0]);
    expect(by["United Nations"]).toEqual(["ORG", 1, 1]);
    // A possessive is not part of the name.
    expect(by["Warren"]).toEqual(["PER", 1, 1]);
    expect(by["Kenya"]).toEqual(["LOC", 1, 1]);
    expect(by["Microsoft Corporation"]).toEqual(["ORG", 1, 2]);
    // compromise does not type "Apple": an untyped single capitalised word gets 0.6.
    expect(by["Apple"]).toEqual(["MISC", RULE_CONFIDENCE.singleWord, 0]);
    expect(RULE_CONFIDENCE).toEqual({ typed: 1, multiWord: 0.85, singleWord: 0.6 });
  });

  it("splits a span compromise runs across a dash into its two names", async () => {
    const text = "Votes went to Harambe — Jonathan Smith said so.";
    const units = groupUnits(await ruleNer().recognise(text), text, splitSentences(text));
    expect(units.map((u) => u.text)).toEqual(expect.arrayContaining(["Harambe", "Jonathan Smith"]));
    expect(units.some((u) => u.text.includes("—"))).toBe(false);
  });

  it("finds nothing in a text without names", async () => {
    expect(await ruleNer().recognise("the weather was mild and nobody complained about it.")).toEqual([]);
  });
});

describe("NER endpoint (NER_URL)", () => {
  it("sends the text, reads word/entity/score/offsets, and says in words what is wrong with a bad answer", async () => {
    const { startSearchServer } = await import("../helpers/search-server");
    const { httpNer, nerProviderFor } = await import("@/lib/tools/ner");
    const server = await startSearchServer();
    try {
      server.script("POST /ner", [
        { json: [{ word: "Kenya", entity: "B-LOC", score: 0.93, start: 10, end: 15 }] },
        { status: 503, json: { error: "loading" } },
        { json: [{ word: "Kenya", score: 2 }] },
      ]);
      const ner = httpNer({ url: `${server.url}/ner` });
      expect(ner.heuristic).toBe(false);
      expect(await ner.recognise("Visiting Kenya today")).toEqual([
        { text: "Kenya", tag: "B-LOC", confidence: 0.93, start: 10, end: 15 },
      ]);
      expect(server.requests[0]!.body).toEqual({ inputs: "Visiting Kenya today" });
      await expect(ner.recognise("x")).rejects.toThrow(/answered 503/);
      await expect(ner.recognise("x")).rejects.toThrow(/unexpected format .*score/);
      expect(() => nerProviderFor("http", {})).toThrow(/NER_URL is not set/);
    } finally {
      await server.close();
    }
  });
});
