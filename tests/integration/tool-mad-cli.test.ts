import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { writeTinyGguf } from "../helpers/tiny-gguf";
import { backend, freshCliEnv } from "./test-db";

/**
 * `counterpoint debate --preset toolmad-...`: the preset names the protocol and its settings,
 * --config goes over them, and the debate runs through the CLI like any other. A local model with
 * random weights writes no label, so the run also shows unreadable answers ending as UNPARSED.
 */

let env: Record<string, string>;
let corpusFile: string;
beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-cli-toolmad-"));
  const model = await writeTinyGguf(path.join(dir, "tiny.gguf"), { seed: 7, contextLength: 16384 });
  corpusFile = path.join(dir, "news.jsonl");
  fs.writeFileSync(
    corpusFile,
    [
      {
        id: "a",
        title: "Medal auction",
        text: "The boxer auctioned his Olympic medal in 2012 for a children's hospital.",
        published_at: "2012-06-01",
      },
      {
        id: "b",
        title: "Hospital",
        text: "The children's hospital opened a wing in 2013.",
        published_at: "2013-02-01",
      },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n"),
  );
  env = {
    ...(await freshCliEnv()),
    DEFAULT_MODEL: `local:${model}`,
    LOCAL_THREADS: "1",
    LOCAL_CONTEXT_SIZE: "16384",
  };
});

describe(`counterpoint debate --preset on ${backend}`, () => {
  it("runs a Tool-MAD preset with --config over it, storing the protocol's turns and the scheme's settings", async () => {
    const ingest = await runCli(["ingest", corpusFile, "--corpus", "news"], env);
    expect(ingest.code).toBe(0);
    const r = await runCli(
      [
        "debate",
        "The boxer sold his Olympic medal in 2012 to fund a children's hospital.",
        "--corpus",
        "news",
        "--preset",
        "toolmad-faviq",
        "--config",
        '{"rounds":1,"gate":"off","queryFormulation":"off"}',
        "--json",
      ],
      env,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!).result;
    expect(result).toMatchObject({
      status: "completed",
      protocol: "tool-mad",
      config: {
        labels: "faviq",
        rounds: 1,
        gate: "off",
        queryFormulation: "off",
        tools: { rag: { provider: "corpus" }, search: { provider: "corpus-standin", live: false } },
      },
    });
    const steps = result.turns.map((t: { round: number; phase: string; role: string }) => `${t.phase}:${t.role}`);
    expect(steps).toEqual(
      expect.arrayContaining([
        "retrieve:rag-agent",
        "retrieve:search-agent",
        "answer:rag-agent",
        "answer:search-agent",
        "consensus:consensus",
        "verdict:judge",
      ]),
    );
    expect(steps.some((s: string) => s.startsWith("query:"))).toBe(false);
    expect(result.verdict.details).toMatchObject({ decidedBy: "judge", stopReason: "rounds", labelScheme: "faviq" });
  });

  it("refuses a preset the protocol does not have, naming the ones it has, and --config that is not a JSON object", async () => {
    const claim = "The boxer sold his Olympic medal in 2012 to fund a children's hospital.";
    const wrong = await runCli(
      ["debate", claim, "--corpus", "news", "--protocol", "radar", "--preset", "toolmad-fever"],
      env,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /--preset: protocol radar has no preset "toolmad-fever"; choose one of: radar-expertise/,
    );
    const bad = await runCli(
      ["debate", claim, "--corpus", "news", "--preset", "toolmad-fever", "--config", "[1]"],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--config must be a JSON object/);
    const field = await runCli(
      ["debate", claim, "--corpus", "news", "--preset", "toolmad-fever", "--config", '{"tauF":2}'],
      env,
    );
    expect(field.code).toBe(1);
    expect(field.stderr).toMatch(/config\.tauF: Tool-MAD/);
  });
});
