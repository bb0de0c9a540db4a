import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DebateLive, reduce } from "@/components/debate/debate-live";
import { registerMethodViews } from "@/components/debate/method-views";
import { interventionFromForm } from "@/components/debate/interventions/form-input";
import { IntervenedLine } from "@/components/debate/interventions/intervention-item";
import {
  evidenceMarks,
  interventionNote,
  methodInterventions,
  offeredKinds,
  placeInterventions,
} from "@/components/debate/interventions/read";
import type { MethodDefinition } from "@/lib/debate/definition";
import type { InterventionView, MethodInterventions } from "@/lib/debate/interventions/contract";
import { DEFAULT_METHOD, findMethod, registerMethod } from "@/lib/debate/methods";
import type { DebateView } from "@/lib/debate/view";

/** Methods made for this file from the default one, differing only in what they declare about interventions. */
const base = findMethod(DEFAULT_METHOD)!;
const withKinds = (name: string, interventions?: MethodInterventions) => {
  if (!findMethod(name)) registerMethod({ ...base, name, interventions } as MethodDefinition); // undefined: declares none, whatever the base does
  return name;
};
const ASKS_AND_STRIKES = withKinds("iv-test-asks", { kinds: ["ask", "strike"], enters: "before the next round" });
const TAKES_ALL = withKinds("iv-test-all", {
  kinds: ["add_evidence", "ask", "strike", "hold_verdict"],
  enters: "before the next round",
});
const TAKES_NONE = withKinds("iv-test-none");
/** A method with a page of its own (as ZoFia and PROClaim have): it places the page's `extra` and nothing else. */
/** Takes them only until its first step, as ZoFia declares (`until: "start"`). */
const BEFORE_START = withKinds("iv-test-start", {
  kinds: ["add_evidence"],
  enters: "to the analysts before the debate",
  until: "start",
} as MethodInterventions);
const OWN_PAGE = withKinds("iv-test-own", { kinds: ["ask"], enters: "to the analysts before the debate" });
registerMethodViews(OWN_PAGE, {
  Debate: ({ extra }) => createElement("div", { "data-testid": "own-page" }, extra),
});

const iv = (over: Partial<InterventionView> & Pick<InterventionView, "id" | "kind">): InterventionView => ({
  by: "Ana Journalist",
  at: "2026-11-28T16:40:00.000Z",
  summary: "Asked: Does the 40 % include capital spending?",
  status: "applied",
  refusal: null,
  beforeSeq: null,
  answeredBySeq: null,
  evidenceRank: null,
  ...over,
});

const turn = (seq: number, phase: string, role: string, content: string) => ({
  seq,
  round: 1,
  phase,
  role,
  kind: "speech",
  status: "completed",
  model: "m",
  content,
  promptTokens: 1,
  completionTokens: 1,
  costUsd: null,
  latencyMs: 1,
  citations: [],
  scores: null,
  metadata: null,
  error: null,
});

const evidence = (rank: number, title: string) => ({
  rank,
  text: `Passage ${rank} text`,
  title,
  url: null,
  source: "corpus",
  score: 0.5,
  denseRank: rank,
  lexicalRank: rank,
  publishedAt: null,
  origin: null,
  addedSeq: null,
  visibleTo: null,
  metadata: null,
});

function viewOf(protocol: string, interventions: InterventionView[], over: Partial<DebateView> = {}): DebateView {
  return {
    id: "00000000-0000-4000-8000-000000000039",
    status: "running",
    protocol,
    variant: null,
    config: {},
    models: {},
    evidenceMode: "retrieved",
    extras: {},
    error: null,
    createdAt: "2026-11-28T16:30:00.000Z",
    startedAt: "2026-11-28T16:30:00.000Z",
    finishedAt: null,
    matchDecision: null,
    claim: { text: "The council spends 40 % of its budget on roads.", date: null, title: null, url: null },
    evidence: [evidence(1, "Anonymous blog"), evidence(2, "Council budget 2025")],
    turns: [turn(1, "opening", "pro", "Opening for."), turn(2, "opening", "con", "Opening against.")],
    notes: [],
    verdict: null,
    totals: null,
    interventions,
    ...over,
  } as unknown as DebateView;
}

const page = (view: DebateView, canControl: boolean) =>
  renderToStaticMarkup(createElement(DebateLive, { initial: view, canControl }));

describe("the intervention panel offers what the method takes", () => {
  it("offers only the method's declared kinds, in the panel's order, and none when it declares none", () => {
    expect(offeredKinds(methodInterventions(findMethod(ASKS_AND_STRIKES)))).toEqual(["ask", "strike"]);
    expect(offeredKinds(methodInterventions(findMethod(TAKES_ALL)))).toEqual([
      "add_evidence",
      "ask",
      "strike",
      "hold_verdict",
    ]);
    expect(methodInterventions(findMethod(TAKES_NONE))).toBeNull();
    expect(offeredKinds(null)).toEqual([]);
  });

  it("draws the panel for a controller with the method's kinds only, and nothing for a viewer or a method that takes none", () => {
    const controller = page(viewOf(ASKS_AND_STRIKES, []), true);
    expect(controller).toContain('data-testid="intervention-panel"');
    expect(controller).toContain("Ask a question");
    expect(controller).toContain("Strike a source");
    expect(controller).not.toContain("Add evidence");
    expect(controller).not.toContain("Hold the verdict");
    expect(controller).toContain("before the next round");
    expect(controller).toContain("0 of 20 used");

    expect(page(viewOf(ASKS_AND_STRIKES, []), false)).not.toContain('data-testid="intervention-panel"');
    expect(page(viewOf(TAKES_NONE, []), true)).not.toContain('data-testid="intervention-panel"');
    // Once the verdict is written the debate takes no more.
    expect(page(viewOf(TAKES_ALL, [], { status: "completed" }), true)).not.toContain(
      'data-testid="intervention-panel"',
    );
  });
});

describe("interventions in the transcript", () => {
  const asked = iv({ id: "a", kind: "ask", beforeSeq: 2, answeredBySeq: 2 });
  const added = iv({
    id: "b",
    kind: "add_evidence",
    summary: "Added “Council budget 2025” (pasted)",
    beforeSeq: 2,
    evidenceRank: 2,
    at: "2026-11-28T16:39:00.000Z",
  });
  const struck = iv({ id: "c", kind: "strike", summary: "Struck E1: anonymous blog", beforeSeq: 2, evidenceRank: 1 });
  const waiting = iv({
    id: "d",
    kind: "ask",
    summary: "Asked: Who audited it?",
    status: "waiting",
    at: "2026-11-28T16:45:00.000Z",
  });

  it("places each before the turn it preceded, oldest first, and the waiting ones at the end", () => {
    const placed = placeInterventions([waiting, asked, struck, added], [1, 2]);
    expect(placed.before.get(2)?.map((i) => i.id)).toEqual(["b", "a", "c"]);
    expect(placed.before.has(1)).toBe(false);
    expect(placed.after.map((i) => i.id)).toEqual(["d"]);
    // Before a step the transcript does not show (a judge's checkpoint), it goes before the next turn shown…
    const checkpoint = { ...asked, beforeSeq: 3 };
    expect(
      placeInterventions([checkpoint], [1, 2, 4])
        .before.get(4)
        ?.map((i) => i.id),
    ).toEqual(["a"]);
    // …and at the end when no turn shown came after it.
    expect(placeInterventions([checkpoint], [1, 2]).after.map((i) => i.id)).toEqual(["a"]);
  });

  it("marks struck and added passages only once applied", () => {
    const marks = evidenceMarks([added, struck, { ...struck, id: "e", evidenceRank: 2, status: "waiting" }]);
    expect(marks.get(1)?.struck?.summary).toBe("Struck E1: anonymous blog");
    expect(marks.get(2)).toEqual({ addedBy: "Ana Journalist" });
  });

  it("draws them on the page: before turn 2, who and when, which turn answered, the struck source and who added a passage", () => {
    const html = page(viewOf(TAKES_ALL, [asked, added, struck, waiting]), false);
    const turn1 = html.indexOf("Opening for.");
    const turn2 = html.indexOf("Opening against.");
    const question = html.indexOf("Asked: Does the 40 % include capital spending?");
    expect(turn1).toBeGreaterThan(-1);
    expect(question).toBeGreaterThan(turn1);
    expect(question).toBeLessThan(turn2);
    expect(html.indexOf("Asked: Who audited it?")).toBeGreaterThan(turn2);
    expect(html).toContain("Answered in turn 2");
    expect(html).toContain("Not answered yet");
    expect(html).toContain("28 Nov 2026, 16:40 UTC");
    expect(html).toContain('data-struck="true"');
    expect(html).toContain("Struck by Ana Journalist; later turns no longer see it.");
    expect(html).toMatch(/data-struck="true"[\s\S]*Struck E1: anonymous blog/);
    expect(html).toContain("added by Ana Journalist");
  });

  it("says under the verdict what people did, counting only what entered the debate, and links to the first", () => {
    expect(interventionNote([asked, added, struck, waiting])?.text).toBe(
      "People added a passage of evidence, asked a question and struck a source during this debate; the verdict is not the agents' work alone.",
    );
    expect(interventionNote([asked, { ...asked, id: "z" }])?.text).toBe(
      "People asked 2 questions during this debate; the verdict is not the agents' work alone.",
    );
    // Waiting or refused ones changed nothing: no line.
    expect(interventionNote([waiting, { ...struck, status: "refused", refusal: "Too late." }])).toBeNull();
    const verdict = {
      label: "FALSE",
      reason: "The budget shows 9 %.",
      confidence: 0.8,
      stoppedEarly: false,
      stopAfter: null,
      roundsCompleted: 1,
      details: null,
    };
    const finished = { status: "completed", finishedAt: "2026-11-28T16:50:00.000Z", verdict } as Partial<DebateView>;
    const html = page(viewOf(TAKES_ALL, [waiting, added, asked], finished), false);
    const summary = html.slice(html.indexOf('data-testid="verdict-summary"'));
    expect(summary).toMatch(
      /data-testid="verdict-interventions"[^>]*>People added a passage of evidence and asked a question/,
    );
    // The link goes to the oldest applied one, which the transcript draws with that id.
    expect(summary).toContain('href="#intervention-b"');
    expect(html).toContain('id="intervention-b"');
    // The agents' work alone: nothing said.
    expect(page(viewOf(TAKES_ALL, [waiting], finished), false)).not.toContain("verdict-interventions");
  });

  it("lists them, each with the turn it came before, and offers the panel on a method's own page", () => {
    const html = page(viewOf(OWN_PAGE, [asked, waiting]), true);
    expect(html).toContain('data-testid="own-page"');
    expect(html).toContain('data-testid="intervention-log"');
    expect(html).toContain("Before turn 2");
    expect(html).toContain("Not reached by the debate yet");
    expect(html).toContain('data-testid="intervention-panel"');
    expect(html).toContain("to the analysts before the debate");
  });

  it("takes an intervention event into the page's view, the latest copy of one replacing the one held", () => {
    const event = (intervention: InterventionView) => ({
      kind: "event" as const,
      event: { type: "intervention", intervention } as never,
    });
    const start = { view: viewOf(TAKES_ALL, [asked]), live: [] };
    const sent = reduce(start, event(waiting));
    expect(sent.view.interventions.map((i) => i.id)).toEqual(["a", "d"]);
    const applied = reduce(sent, event({ ...waiting, status: "applied", beforeSeq: 3 }));
    expect(applied.view.interventions.map((i) => [i.id, i.status])).toEqual([
      ["a", "applied"],
      ["d", "applied"],
    ]);
  });

  it("finds a struck passage by the strike's summary when the engine leaves its rank out", () => {
    const marks = evidenceMarks([{ ...struck, evidenceRank: null }]);
    expect(marks.get(1)?.struck?.by).toBe("Ana Journalist");
  });

  it("closes the panel of a method that takes interventions only before it starts, once a step exists", () => {
    const started = page(viewOf(BEFORE_START, []), true);
    expect(started).toContain('data-testid="intervention-closed"');
    expect(started).not.toContain("Add to the evidence");
    const before = page(viewOf(BEFORE_START, [], { turns: [] } as Partial<DebateView>), true);
    expect(before).not.toContain('data-testid="intervention-closed"');
    expect(before).toContain("Where it comes from");
  });

  it("tells an annotator a person intervened, and says nothing when no one did or every attempt was refused", () => {
    // The one still waiting (filed while the verdict was written) reached no turn: the verdict does
    // not count it (details.interventions), and neither does the line.
    const line = renderToStaticMarkup(createElement(IntervenedLine, { items: [asked, added, waiting] }));
    expect(line).toContain("A person intervened in this debate (2 times: ask a question, add evidence)");
    expect(line).not.toContain("Who audited it?");
    expect(renderToStaticMarkup(createElement(IntervenedLine, { items: [waiting] }))).toBe("");
    const refused = { ...asked, status: "refused" as const, refusal: "The court did not admit it." };
    expect(renderToStaticMarkup(createElement(IntervenedLine, { items: [refused] }))).toBe("");
    expect(renderToStaticMarkup(createElement(IntervenedLine, { items: [] }))).toBe("");
  });
});

describe("the panel's forms as the contract's input", () => {
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };
  it("reads each kind and names the field a refusal concerns", () => {
    expect(interventionFromForm(form({ kind: "ask", question: " Why? " }))).toEqual({
      ok: true,
      input: { kind: "ask", question: "Why?" },
    });
    expect(
      interventionFromForm(form({ kind: "add_evidence", from: "text", text: "t", title: "Budget", sourceUrl: "" })),
    ).toEqual({ ok: true, input: { kind: "add_evidence", source: { from: "text", text: "t", title: "Budget" } } });
    expect(interventionFromForm(form({ kind: "hold_verdict", hold: "false" }))).toEqual({
      ok: true,
      input: { kind: "hold_verdict", hold: false },
    });
    expect(interventionFromForm(form({ kind: "ask", question: "  " }))).toEqual({
      ok: false,
      error: "The question is empty.",
      field: "question",
    });
    expect(
      interventionFromForm(form({ kind: "add_evidence", from: "text", text: "t", title: "B", sourceUrl: "nope" })),
    ).toMatchObject({ ok: false, field: "sourceUrl" });
    expect(interventionFromForm(form({ kind: "strike", reason: "blog" }))).toMatchObject({
      ok: false,
      field: "evidenceRank",
    });
    expect(interventionFromForm(form({ kind: "add_evidence", from: "corpus" }))).toMatchObject({
      ok: false,
      field: "passageId",
    });
  });
});
