import { describe, expect, it } from "vitest";
import {
  answerLabelOf,
  answerReason,
  layoutToolMad,
  queryDiff,
  queryOf,
  type ToolMadTurn,
} from "@/lib/debate/tool-mad/views/rounds";
import { productLabelOf, stopReasonWords, toolMadHeadline } from "@/lib/debate/tool-mad/views/words";

let seq = 0;
const turn = (
  round: number,
  phase: string,
  role: string,
  kind: string,
  extra: Partial<ToolMadTurn> = {},
): ToolMadTurn => ({
  seq: ++seq,
  round,
  phase,
  role,
  kind,
  status: "completed",
  model: "m",
  content: "",
  citations: [],
  metadata: null,
  ...extra,
});

describe("Tool-MAD page layout", () => {
  it("puts each step in its agent's column per round, the scorer by its phase suffix, consensus under the round, the judge apart", () => {
    seq = 0;
    const turns = [
      turn(1, "query", "search-agent", "analysis", {
        metadata: { toolMad: { query: { text: "marsh auction", previous: null, changed: false } } },
      }),
      turn(1, "query", "rag-agent", "analysis"),
      turn(1, "retrieve", "rag-agent", "tool"),
      turn(1, "answer", "rag-agent", "speech", { content: "[REASON]: yes [E1]\n[ANSWER]: SUPPORTS" }),
      turn(1, "faithfulness-statements:search-agent", "scorer", "analysis"),
      turn(1, "gate", "rag-agent", "analysis", { metadata: { value: { pass: true } } }),
      turn(1, "consensus", "consensus", "analysis", {
        metadata: { value: { labels: {}, agreed: false, gatesPassed: false, label: null } },
      }),
      turn(2, "answer-repair", "search-agent", "speech"),
      turn(2, "verdict", "judge", "judge"),
      turn(2, "mystery", "someone", "analysis"),
    ];
    const l = layoutToolMad(turns, ["search-agent", "rag-agent"]);
    expect(l.agents).toEqual(["rag-agent", "search-agent"]);
    expect(l.rounds.map((r) => r.round)).toEqual([1, 2]);
    const [rag, search] = l.rounds[0]!.agents;
    expect(rag!.query?.seq).toBe(2);
    expect(rag!.retrieve?.seq).toBe(3);
    expect(rag!.answer?.seq).toBe(4);
    expect(rag!.gate?.seq).toBe(6);
    expect(search!.query?.seq).toBe(1);
    expect(search!.scoring.map((t) => t.seq)).toEqual([5]);
    expect(l.rounds[0]!.consensus?.seq).toBe(7);
    expect(l.rounds[1]!.agents[1]!.answerRepair?.seq).toBe(8);
    expect(l.judge.map((t) => t.seq)).toEqual([9]);
    // Nothing is dropped: a step the page does not know is still shown.
    expect(l.other.map((t) => t.seq)).toEqual([10]);
  });

  it("reads the query from metadata, or from a streaming turn's QUERY line", () => {
    expect(
      queryOf(
        turn(2, "query", "rag-agent", "analysis", {
          metadata: { toolMad: { query: { text: "b", previous: "a", changed: true } } },
        }),
      ),
    ).toEqual({ text: "b", previous: "a", changed: true });
    expect(
      queryOf(turn(1, "query", "rag-agent", "analysis", { status: "streaming", content: "QUERY: marsh gala" }))?.text,
    ).toBe("marsh gala");
  });

  it("takes the stored label, else the final ANSWER line of a finished answer, and strips it from the reasoning", () => {
    expect(
      answerLabelOf(
        turn(1, "answer", "rag-agent", "speech", {
          metadata: { toolMad: { label: "UNPARSED" } },
          content: "[ANSWER]: SUPPORTS",
        }),
      ),
    ).toBe("UNPARSED");
    expect(answerLabelOf(turn(1, "answer", "rag-agent", "speech", { content: "[REASON]: x\n[ANSWER]: REFUTES" }))).toBe(
      "REFUTES",
    );
    expect(
      answerLabelOf(turn(1, "answer", "rag-agent", "speech", { status: "streaming", content: "[ANSWER]: REF" })),
    ).toBeNull();
    expect(answerReason("[REASON]: the sale was in 2019 [E1].\n[ANSWER]: REFUTES")).toBe("the sale was in 2019 [E1].");
  });

  it("diffs queries word by word", () => {
    expect(queryDiff("marsh auction 2024", "marsh gala auction")).toEqual([
      { text: "marsh", op: "same" },
      { text: "gala", op: "added" },
      { text: "auction", op: "same" },
      { text: "2024", op: "removed" },
    ]);
  });

  it("says labels, stop reasons and the set-up in words", () => {
    expect(productLabelOf("SUPPORTS")).toBe("TRUE");
    expect(productLabelOf("Conflicting Evidence/Cherrypicking")).toBe("HALF-TRUE");
    expect(productLabelOf("NOT ENOUGH INFO")).toBeNull();
    expect(productLabelOf("UNPARSED")).toBeNull();
    expect(stopReasonWords("budget:calls")).toContain("model-call budget");
    expect(toolMadHeadline({ agents: ["rag", "rag"], rounds: 2, labels: "averitec", gate: "off" })).toBe(
      "Tool-MAD · corpus agent vs corpus agent 2 · up to 2 rounds · AVeriTeC labels · no answer checks",
    );
  });
});
