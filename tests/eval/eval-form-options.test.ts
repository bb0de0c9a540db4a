import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { NewRunForm } from "@/components/eval/new-run-form";
import { DEFAULT_METHOD, getMethod } from "@/lib/debate/methods";

/*
 * /eval/new's method settings come from the method's definition (`variants`, `evalOptions`):
 * the form names no method's field, so a method's choices are what its definition gives.
 */
const def = getMethod(DEFAULT_METHOD);
const saved = def.evalOptions;
afterEach(() => {
  (def as { evalOptions?: typeof saved }).evalOptions = saved;
});
const form = () => renderToStaticMarkup(createElement(NewRunForm, { corpora: [] }));

describe("the evaluation form's method settings", () => {
  it("shows the default method's evaluation choices (RADAR: early stopping, with calibration's setting)", () => {
    const out = form();
    expect(out).toContain('name="earlyStopping"');
    expect(out).toContain('value="score-only"');
    expect(out).toContain("score every checkpoint, never stop (for calibration)");
  });

  it("shows what the definition gives and nothing else", () => {
    (def as { evalOptions?: typeof saved }).evalOptions = [
      { name: "depth", label: "Depth", defaultValue: "2", choices: [{ value: "2", label: "two rounds" }] },
    ];
    const out = form();
    expect(out).toContain('name="depth"');
    expect(out).toContain("two rounds");
    expect(out).not.toContain("earlyStopping");
  });
});
