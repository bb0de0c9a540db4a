import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/**
 * `dataset convert` for PROClaim's subsets and `eval --repeats` as a user runs them. The runs are
 * made with Tool-MAD (PROClaim is another branch's): repeats and the reporting policy are the
 * evaluation's, whatever the protocol. Only created (--detach), never debated.
 */

const FIX = path.resolve(import.meta.dirname, "..", "fixtures", "datasets");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-rep-"));

let dbEnv: Record<string, string>;
beforeAll(async () => {
  dbEnv = await freshCliEnv();
});

describe(`dataset convert --dataset proclaim-* and eval --repeats on ${backend}`, () => {
  it("writes the Check-COVID subset in PROClaim's labels and says how many of each", async () => {
    const out = path.join(tmp(), "f.jsonl");
    const r = await runCli([
      "dataset",
      "convert",
      "--dataset",
      "proclaim-checkcovid",
      "--data",
      path.join(FIX, "proclaim_subsets"),
      "--out",
      out,
      "--json",
    ]);
    // The fixture is a part of the subset, and the importer says so rather than passing it off as whole.
    expect(r.stderr).toMatch(/3 of the 121 claims proclaim-checkcovid has \(a part of it\)/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      dataset: "proclaim-checkcovid",
      claims: 3,
      labels: { "NOT SUPPORTED": 2, SUPPORTED: 1 },
    });
    expect(fs.readFileSync(out, "utf8").trim().split("\n")).toHaveLength(3);
  });

  it("--repeats 2 makes two linked runs over the same claims; the report of either names the group and both runs", async () => {
    expect((await runCli(["migrate"], dbEnv)).code).toBe(0);
    const env = { ...dbEnv, DEFAULT_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-test-not-used" };
    const e = await runCli(
      [
        "eval",
        "--protocol",
        "tool-mad",
        "--dataset",
        "proclaim-scifact",
        "--data",
        path.join(FIX, "proclaim_subsets"),
        "--repeats",
        "2",
        "--inconclusive",
        "refute",
        "--detach",
        "--json",
      ],
      env,
    );
    expect(e.code).toBe(0);
    expect(e.stderr).toMatch(/2 runs of every claim \(--repeats 2\): 2 × the above/);
    const made = JSON.parse(e.stdout) as { run_id: string; run_ids: string[]; repeat_group: string; items: number };
    expect(made.run_ids).toHaveLength(2);
    expect(made.run_ids[0]).toBe(made.run_id);
    expect(made.items).toBe(2);
    expect(made.repeat_group).toMatch(/^[0-9a-f-]{36}$/);

    // --json after `report` (commander gives it to `eval`, which has one too): still JSON.
    const rep = await runCli(["eval", "report", made.run_ids[1]!, "--json"], env);
    expect(rep.code).toBe(0);
    const r = JSON.parse(rep.stdout) as {
      run: { name: string; config: Record<string, unknown> };
      repeats: { group: string; of: number; runs: Array<{ run_id: string; index: number; status: string }> };
    };
    expect(r.run.name).toMatch(/run 2\/2$/);
    expect(r.run.config).toMatchObject({
      repeat: { group: made.repeat_group, index: 2, of: 2 },
      reporting: { inconclusive: "refute" },
    });
    expect(r.repeats).toMatchObject({ group: made.repeat_group, of: 2 });
    expect(r.repeats.runs.map((x) => [x.run_id, x.index, x.status])).toEqual([
      [made.run_ids[0], 1, "queued"],
      [made.run_ids[1], 2, "queued"],
    ]);
    const bad = await runCli(["eval", "report", made.run_id, "--inconclusive", "maybe"], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/expected one of support, refute, exclude/);
  });
});
