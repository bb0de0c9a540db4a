import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/** The Tool-MAD dataset and evaluation commands as a user runs them, on the small fixtures. */

const FIX = path.resolve(import.meta.dirname, "..", "fixtures", "datasets");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-tmcli-"));

let dbEnv: Record<string, string>;
beforeAll(async () => {
  dbEnv = await freshCliEnv();
});

describe(`dataset convert and eval for Tool-MAD on ${backend}`, () => {
  it("writes a seeded sample of FEVEROUS-S claims, the same file twice, with the draw recorded", async () => {
    const dir = tmp();
    const args = (out: string) => [
      "dataset",
      "convert",
      "--dataset",
      "feverous",
      "--data",
      path.join(FIX, "feverous"),
      "--out",
      out,
      "--sample",
      "2",
      "--seed",
      "5",
      "--json",
    ];
    const a = await runCli(args(path.join(dir, "a.jsonl")));
    // The fixture is 4 of FEVEROUS-S's claims, and the importer says so.
    expect(a.stderr).toMatch(/4 of the 2,962 claims feverous has/);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toMatchObject({
      dataset: "feverous",
      claims: 2,
      sample: { n: 2, of: 4, seed: 5, method: "random" },
    });
    const b = await runCli(args(path.join(dir, "b.jsonl")));
    expect(b.code).toBe(0);
    const text = fs.readFileSync(path.join(dir, "a.jsonl"), "utf8");
    expect(fs.readFileSync(path.join(dir, "b.jsonl"), "utf8")).toBe(text);
    const rows = text
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            label: string;
            gold_evidence: Array<{ text: string }>;
            metadata: { sample: { seed: number } };
          },
      );
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => ["SUPPORTS", "REFUTES"].includes(r.label) && r.metadata.sample.seed === 5)).toBe(true);
    expect(text).not.toMatch(/\[\[/);
  });

  it("a wrong folder fails with the file it expected", async () => {
    const r = await runCli([
      "dataset",
      "convert",
      "--dataset",
      "fever",
      "--data",
      path.join(FIX, "averitec"),
      "--out",
      path.join(tmp(), "x.jsonl"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no fever_labelled_dev\.json here or in fever\/ \(expected the FEVER folder/);
  });

  it("eval --preset toolmad-faviq without the data says it comes as a zip and from where", async () => {
    const r = await runCli(["eval", "--preset", "toolmad-faviq", "--data", tmp(), "--detach"], dbEnv);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FaVIQ is published as a zip file.*github\.com\/faviq\/faviq/s);
  });

  it("eval --preset toolmad-fever previews the cost and starts without waiting for input when stdin is not a terminal", async () => {
    const r = await runCli(["migrate"], dbEnv);
    expect(r.code).toBe(0);
    const env = { ...dbEnv, DEFAULT_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-test-not-used" };
    // stdin is an open pipe that never ends: a prompt would wait for ever and time the test out.
    const e = await runCli(
      ["eval", "--preset", "toolmad-fever", "--data", FIX, "--limit", "2", "--detach", "--json"],
      env,
    );
    expect(e.code).toBe(0);
    expect(e.stderr).toMatch(/random 2 \(seed 2025\)/);
    expect(e.stderr).toMatch(
      /Before starting: 2 claims × the protocol's estimate per claim \(\d+ LLM calls, \d+ tool calls/,
    );
    expect(e.stderr).toMatch(/about \$\d+\.\d+/);
    expect(e.stderr).toMatch(/rag-agent=openai:gpt-4o-mini/);
    expect(JSON.parse(e.stdout)).toMatchObject({ items: 2, skipped: [] });
  });
});
