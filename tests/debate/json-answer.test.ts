import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readJsonAnswer } from "@/lib/debate/json-answer";

const schema = z.object({ label: z.enum(["SUPPORTS", "REFUTES"]), reason: z.string() });

describe("reading a model's JSON answer", () => {
  it("takes the fenced block, or the last balanced block after prose that uses braces", () => {
    expect(readJsonAnswer('Sure:\n```json\n{"label":"REFUTES","reason":"r"}\n```', schema)).toEqual({
      ok: true,
      value: { label: "REFUTES", reason: "r" },
    });
    const thinking =
      'I weigh {the auction} against {the war}. Answer: {"label": "SUPPORTS", "reason": "a } inside a string"}';
    expect(readJsonAnswer(thinking, schema)).toEqual({
      ok: true,
      value: { label: "SUPPORTS", reason: "a } inside a string" },
    });
    expect(
      readJsonAnswer(
        '[{"statement":"s","verdict":1}]',
        z.array(z.object({ statement: z.string(), verdict: z.literal(1) })),
      ),
    ).toMatchObject({ ok: true });
  });

  it("says what was wrong and where, never a default", () => {
    expect(readJsonAnswer("REFUTES, clearly.", schema)).toEqual({
      ok: false,
      problem: "the answer contains no JSON object",
    });
    const wrong = readJsonAnswer('{"label": "MOSTLY TRUE", "reason": "x"}', schema);
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.problem).toMatch(/^the JSON does not match the format \(label: /);
    expect(readJsonAnswer('{"label": "REFUTES",}', schema)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/does not parse/),
    });
  });
});
