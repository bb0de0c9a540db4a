import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ComparePicker } from "@/components/debate/compare-picker";
import { DebateForm } from "@/components/debate/debate-form";
import { VerdictCard } from "@/components/debate/verdict-card";
import { MethodSection } from "@/components/methods/method-section";
import { formMethodChoices } from "@/lib/debate/form";
import { methodTexts } from "@/lib/methods/catalog";
import { methodFacts } from "@/lib/methods/facts";
import { installFixtureMethods } from "../fixtures/methods/install";

/*
 * The test method of tests/fixtures/methods/verity, registered once and defined nowhere else,
 * rendered by the components the pages use (server-side markup, no browser): the form's method
 * choice, the compare picker, the /methods section and the verdict card. The page functions read
 * the database and the session; these are what they render with the registry's data.
 */

installFixtureMethods();

const html = (el: Parameters<typeof renderToStaticMarkup>[0]) =>
  renderToStaticMarkup(el)
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/&quot;/g, '"');

const choices = formMethodChoices();
const protocols = choices.map(({ name, title, blurb }) => ({ name, title, blurb }));

describe("a method from a fixture folder on the rendered pages", () => {
  it("the form offers it with its title, and the compare picker lists it with its presets", () => {
    const form = html(
      createElement(DebateForm, {
        corpora: [{ name: "sample", passages: 10 }],
        models: [],
        defaults: { default: "", roles: {} },
        examples: [],
        protocols,
        methodPresets: Object.fromEntries(choices.map((c) => [c.name, c.presets])),
        comparePresets: { verity: ["verity-quick"] },
      }),
    );
    expect(form).toMatch(/value="verity"/);
    expect(form).toContain("Verity");
    const picker = html(
      createElement(ComparePicker, {
        corpora: [{ name: "sample", passages: 10 }],
        protocols,
        presets: { verity: ["verity-quick"] },
      }),
    );
    expect(picker).toContain("Verity");
    expect(picker).toMatch(/value="verity"/);
  });

  it("/methods describes it from its definition, and its verdict card reads its label on the product scale", () => {
    const text = methodTexts().find((t) => t.protocol === "verity")!;
    const section = html(createElement(MethodSection, { text, facts: methodFacts("verity") }));
    expect(section).toContain("Verity");
    expect(section).toContain("A test method: one advocate argues, a judge answers yes or no.");
    const card = html(
      createElement(VerdictCard, {
        method: "verity",
        verdict: {
          label: "NO",
          reason: "The minutes show no vote [E1].",
          confidence: null,
          labelProbs: null,
          stoppedEarly: false,
          stopAfter: null,
          roundsCompleted: 1,
        },
        onCite: () => {},
      }),
    );
    expect(card).toContain('data-product="FALSE"');
    expect(card).toContain("Verity said <strong>Does not hold up</strong>");
  });
});
