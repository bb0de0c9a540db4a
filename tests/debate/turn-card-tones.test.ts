import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RoleTones, TurnCard, type TurnLike } from "@/components/debate/turn-card";
import { findMethod } from "@/lib/debate/methods";

/*
 * A turn card's colour is its role's tone as the method's definition declares it (`roleTones`),
 * provided by the page that knows the method; the card itself names no role.
 */
const turn = (role: string): TurnLike => ({
  seq: 1,
  round: 1,
  phase: "opening",
  role,
  kind: "speech",
  status: "completed",
  model: "m",
  content: "Text.",
  citations: [],
});
const card = (role: string, method?: string) => {
  const el = createElement(TurnCard, { turn: turn(role), onCite: () => {} });
  const out = renderToStaticMarkup(
    method ? createElement(RoleTones.Provider, { value: findMethod(method)?.roleTones ?? {} }, el) : el,
  );
  return /<article[^>]*class="([^"]*)"/.exec(out)![1]!;
};

describe("turn card colours", () => {
  it("draws each role in the tone its method declares", () => {
    expect(card("politician", "radar")).toContain("border-l-blue-600");
    expect(card("scientist", "radar")).toContain("border-l-emerald-600");
    expect(card("round-judge", "radar")).toContain("border-l-stone-400 bg-stone-50");
    expect(card("judge", "tool-mad")).toContain("border-l-stone-700");
  });

  it("draws a role plain when no method gives it a tone, whatever its name", () => {
    expect(card("politician")).toContain("border-l-stone-400 bg-white");
    // Tool-MAD declares no tone for its agents.
    expect(card("politician", "tool-mad")).toContain("border-l-stone-400 bg-white");
  });
});
