import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/** `eval` on a file whose gold labels the method cannot read: refused out loud, or started knowingly. */

let env: Record<string, string>;
beforeAll(async () => {
  env = { ...(await freshCliEnv()), DEFAULT_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-test-not-used" };
  expect((await runCli(["migrate"], env)).code).toBe(0);
});

const file = (rows: object[]) => {
  const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cp-unscored-")), "claims.jsonl");
  fs.writeFileSync(f, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return f;
};
const gold = [{ text: "The passage." }];

describe(`eval with labels the method cannot score, on ${backend}`, () => {
  it("refuses to start, exit 1, naming the labels and the fix; --allow-unscored starts it and says the count first", async () => {
    const f = file([
      { id: 1, claim: "One.", label: "TRUE", gold_evidence: gold },
      { id: 2, claim: "Two.", label: "TURE", gold_evidence: gold },
      { id: 3, claim: "Three.", label: "pants-fire", date: "2020-03-01T10:00:00", gold_evidence: gold },
    ]);
    const r = await runCli(["eval", "--claims", f, "--evidence", "gold", "--detach", "--json"], env);
    expect(r.code).toBe(1);
    // Under --json the error is one JSON line on stderr.
    const error = JSON.parse(r.stderr.split("\n").find((l) => l.startsWith('{"error"'))!).error.message;
    expect(error).toMatch(
      /Not started: 1 claim of 3 would go unscored by RADAR: the gold label "TURE" \(1\) has no reading/,
    );
    expect(error).toMatch(/--allow-unscored/);
    const ok = await runCli(
      ["eval", "--claims", f, "--evidence", "gold", "--detach", "--json", "--allow-unscored"],
      env,
    );
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/radar: 1 claim of 3 will not be scored \("TURE" \(1\)\)/);
    expect(JSON.parse(ok.stdout)).toMatchObject({ items: 3 });
  });
});
