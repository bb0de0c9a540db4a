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
    expect(by["Elizabeth Warren"]).toEqual(["PER", RULE_CONFIDENCE.typed, 0]);
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

  it("finds nothing in a text without names", async () => {
    expect(await ruleNer().recognise("the weather was mild and nobody complained about it.")).toEqual([]);
  });
});
