import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/** `eval --protocols` and `eval leaderboard` as a user runs them; created only (--detach), never debated. */

const FEVER = path.resolve(import.meta.dirname, "..", "fixtures", "datasets", "fever");

let env: Record<string, string>;
beforeAll(async () => {
  env = { ...(await freshCliEnv()), DEFAULT_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-test-not-used" };
  expect((await runCli(["migrate"], env)).code).toBe(0);
});

describe(`eval --protocols on ${backend}`, () => {
  // RADAR needs --corpus or --evidence here (the fixture has no evidence texts); its product-scale plan is tested in eval-matrix.test.ts.
  it("queues ZoFia on FEVER beside Tool-MAD and PROClaim, saying it is scored on the product scale and what that means", async () => {
    const r = await runCli(
      [
        "eval",
        "--protocols",
        "tool-mad,zofia,proclaim",
        "--dataset",
        "fever",
        "--data",
        FEVER,
        "--limit",
        "4",
        "--detach",
        "--json",
      ],
      env,
    );
    expect(r.stderr).toMatch(/Before starting 3 runs over the same 4 claims:/);
    expect(r.stderr).toMatch(
      /- zofia: on the product scale \(TRUE \/ FALSE\): its own labels read as REAL → TRUE, FAKE → FALSE, the gold read the same way; each claim is read as a one-paragraph article/,
    );
    expect(r.stderr).toMatch(
      /\nzofia: Scored on the product scale: this method's own labels cannot be compared with the dataset's/,
    );
    expect(r.code).toBe(0);
    const made = JSON.parse(r.stdout) as { group: string; runs: Array<{ protocol: string; items: number }> };
    expect(made.runs.map((x) => [x.protocol, x.items])).toEqual([
      ["tool-mad", 4],
      ["zofia", 4],
      ["proclaim", 4],
    ]);
    const md = await runCli(["eval", "leaderboard", made.group, "--format", "md"], env);
    expect(md.stdout).toMatch(/\nZoFia: Scored on the product scale/);
  });

  it("queues one run per protocol over the same claims, previews the summed cost, and the leaderboard lists the group", async () => {
    const r = await runCli(
      [
        "eval",
        "--protocols",
        "tool-mad,proclaim",
        "--dataset",
        "fever",
        "--data",
        FEVER,
        "--limit",
        "4",
        "--sample",
        "random",
        "--seed",
        "2",
        "--detach",
        "--json",
      ],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Before starting 2 runs over the same 4 claims:/);
    expect(r.stderr).toMatch(/In all: 580 LLM calls, 96 tool calls, [\d,]+ tokens, about \$/);
    expect(r.stderr).toMatch(/tool-mad: its FEVER labels \(SUPPORTS \/ REFUTES \/ NOT ENOUGH INFO\)/);
    const made = JSON.parse(r.stdout) as {
      group: string;
      runs: Array<{ protocol: string; run_id: string; items: number }>;
    };
    expect(made.runs.map((x) => [x.protocol, x.items])).toEqual([
      ["tool-mad", 4],
      ["proclaim", 4],
    ]);
    const list = await runCli(["eval", "leaderboard", "--list"], env);
    expect(list.stdout).toContain(made.group);
    const md = await runCli(["eval", "leaderboard", made.group, "--format", "md"], env);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/\| tool-mad \| .* \| queued \(0\/4\) \| 0 \|/);
    expect(md.stdout).toMatch(/\| tool-mad \| paper: Tool-MAD v2 paper/);
    const json = JSON.parse((await runCli(["eval", "leaderboard", made.group, "--format", "json"], env)).stdout) as {
      rows: Array<{ run_id: string }>;
    };
    expect(json.rows.map((x) => x.run_id).sort()).toEqual(made.runs.map((x) => x.run_id).sort());
    const missing = await runCli(["eval", "leaderboard", "no-such-group"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /There is no evaluation matrix "no-such-group"\. See the matrices with: npx counterpoint eval leaderboard --list/,
    );
  });
});
