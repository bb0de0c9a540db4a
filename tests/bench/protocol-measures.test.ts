import { describe, expect, it } from "vitest";
import { statementKind } from "@/lib/bench/db-profile";
import { busyMs } from "@/lib/bench/protocols";
import { scriptedModel } from "@/lib/bench/scripted-model";

describe("busyMs: time during which something was working", () => {
  it("counts overlapping calls once, and only inside the window", () => {
    // Two branches' calls overlap on [5, 10]; one call starts before the window.
    expect(
      busyMs(
        [
          [0, 10],
          [5, 20],
          [30, 40],
        ],
        0,
        100,
      ),
    ).toBe(30);
    expect(
      busyMs(
        [
          [-5, 10],
          [50, 150],
        ],
        0,
        100,
      ),
    ).toBe(60);
    expect(
      busyMs(
        [
          [1, 2],
          [1, 2],
        ],
        0,
        100,
      ),
    ).toBe(1);
    expect(busyMs([], 0, 100)).toBe(0);
  });
});

describe("statementKind", () => {
  it("names the runner's statements by purpose", () => {
    expect(statementKind('insert into "turns" ("id", "debate_id") values (default, $1) returning "id"')).toBe(
      "beginTurn / step turn insert",
    );
    expect(
      statementKind(
        "with updated as (update turns set content = $1 where id = $2::uuid returning id) insert into llm_calls ...",
      ),
    ).toMatch(/^finishTurn/);
    expect(statementKind('update "debates" set "heartbeat_at" = now()')).toMatch(/debates update/);
    expect(statementKind('delete from "verdicts" where "verdicts"."debate_id" = $1')).toBe("saveVerdict (delete)");
    expect(statementKind("select p.id, p.text from passages p where p.corpus_id = $1")).toBe("corpus search (tool)");
  });
});

/** One call of the scripted model with a prompt, returning its text. */
async function ask(m: ReturnType<typeof scriptedModel>, system: string, user: string) {
  const r = await m.resolved.model.doStream({
    prompt: [
      { role: "system", content: system },
      { role: "user", content: [{ type: "text", text: user }] },
    ],
  } as never);
  let text = "";
  const reader = r.stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if ((value as { type: string }).type === "text-delta") text += (value as { delta: string }).delta;
  }
  return text;
}

describe("scripted model: Tool-MAD formats", () => {
  const rag = "Your tool is a search over the newsroom's document collection: ...";
  const search = "Your tool is a web search: ...";
  const answerPrompt =
    'Claim...\nFormat (tool-mad/answer): write "[REASON]: <your reasoning, citing documents>" and end with a last line "[ANSWER]: <one of SUPPORTS / REFUTES / NOT ENOUGH INFO>"';

  it("answers each agent by its own round of the plan, and the scorer reads the plan's tags", async () => {
    const m = scriptedModel("openai:gpt-4o-mini", {
      toolMad: { rounds: [{ labels: { rag: 0, search: 1 }, unfaithful: ["search"] }, { offTopic: ["rag"] }] },
    });
    const r1 = await ask(m, rag, answerPrompt);
    const s1 = await ask(m, search, answerPrompt);
    const r2 = await ask(m, rag, answerPrompt);
    expect(r1).toMatch(/\[ANSWER\]: SUPPORTS$/);
    expect(s1).toMatch(/\[ANSWER\]: REFUTES$/);
    expect(r2).toMatch(/\[ANSWER\]: SUPPORTS$/);

    const statements = JSON.parse(
      await ask(m, "", `Answer: ${s1}\nFormat (tool-mad/statements): reply with JSON only`),
    ) as { statements: string[] };
    expect(statements.statements).toHaveLength(2);
    const verdicts = JSON.parse(
      await ask(
        m,
        "",
        `Statements (2):\n${statements.statements.map((x, i) => `${i + 1}. ${x}`).join("\n")}\nFormat (tool-mad/verdicts): reply with JSON only`,
      ),
    ) as Array<{ verdict: number }>;
    expect(verdicts.map((v) => v.verdict)).toEqual([1, 0]);

    const onTopic = JSON.parse(
      await ask(
        m,
        "",
        `Read the answer below and write 3 different questions. ${r1}\nFormat (tool-mad/questions): reply with JSON only`,
      ),
    ) as { questions: string[] };
    const offTopic = JSON.parse(
      await ask(
        m,
        "",
        `Read the answer below and write 3 different questions. ${r2}\nFormat (tool-mad/questions): reply with JSON only`,
      ),
    ) as { questions: string[] };
    expect(onTopic.questions.every((q) => q.includes("Olympic medal"))).toBe(true);
    expect(offTopic.questions.some((q) => q.includes("Olympic medal"))).toBe(false);
  });

  it("writes a query that changes from round to round, and a judge verdict from the offered labels", async () => {
    const m = scriptedModel("openai:gpt-4o-mini", { toolMad: { judge: 1 } });
    const q1 = await ask(m, rag, "Format (tool-mad/query): reply with exactly one line, QUERY: <one search query>");
    const q2 = await ask(m, rag, "Format (tool-mad/query): reply with exactly one line, QUERY: <one search query>");
    expect(q1).toMatch(/^QUERY: /);
    expect(q2).not.toBe(q1);
    const judged = await ask(
      m,
      "",
      'Format (tool-mad/judge): write "[REASON]: <your justification>" and end with a last line "[VERDICT]: <one of Supported / Refuted / Not Enough Evidence / Conflicting Evidence/Cherrypicking>"',
    );
    expect(judged).toMatch(/\[VERDICT\]: Refuted$/);
  });
});
