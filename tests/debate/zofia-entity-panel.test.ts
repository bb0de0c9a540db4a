import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EntityPipeline } from "@/lib/debate/zofia/views/entity-pipeline";
import type { NerStep } from "@/lib/debate/zofia/views/read";

const step = (heuristic: boolean, confidence: number): NerStep => ({
  provider: heuristic ? "rule" : "http",
  label: heuristic ? "rule-based NER, heuristic confidence" : "bert-base-NER",
  heuristic,
  tau: 0.8,
  tauSteps: [0.8],
  units: [{ text: "Governor Elena Marsh", type: "PER", confidence, sentence: 0, kept: true }],
});
const render = (ner: NerStep) =>
  renderToStaticMarkup(
    createElement(EntityPipeline, {
      ner,
      salience: null,
      keywords: null,
      web: [],
      wiki: [],
      wikiOff: null,
      gamma: 0.5,
      cutoff: null,
    }),
  );

describe("ZoFia's entity panel", () => {
  it("shows a rule-based recogniser's 1.00 as a guess, and a model's probability as a number", () => {
    const guessed = render(step(true, 1));
    expect(guessed).toContain("Governor Elena Marsh");
    expect(guessed).toMatch(/>guess</);
    expect(guessed).not.toContain(">1.00<");
    expect(guessed).toContain("rule-of-thumb score 1.00");
    const model = render(step(false, 0.93));
    expect(model).toContain(">0.93<");
    expect(model).not.toMatch(/>guess</);
  });

  it("lists a name tagged as two kinds once, under the kind the recogniser was surest of", () => {
    const ner = step(false, 0.6);
    ner.units = [
      { text: "Marsh", type: "PER", confidence: 0.6, sentence: 0, kept: true },
      { text: "Marsh", type: "LOC", confidence: 0.9, sentence: 1, kept: false },
      { text: "Harbour Board", type: "ORG", confidence: 0.8, sentence: 1, kept: true },
    ];
    const html = render(ner);
    expect(html.match(/Marsh <span/g)?.length).toBe(1);
    expect(html).toContain(">0.90<");
    expect(html).not.toContain(">0.60<");
    expect(html).toContain("Harbour Board");
  });
});
