import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../helpers/cli";
import { beforeAll, describe, expect, it } from "vitest";
import { writeTinyGguf } from "../helpers/tiny-gguf";
import { backend, freshCliEnv } from "./test-db";

const cli = runCli;

let env: Record<string, string>;
let gold: string;
beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-cli-debate-"));
  // A real local model file (random weights), loaded through the app's own local provider.
  const model = await writeTinyGguf(path.join(dir, "tiny.gguf"), { seed: 5, contextLength: 16384 });
  gold = path.join(dir, "gold.txt");
  fs.writeFileSync(gold, "The boxer auctioned his medal in 2012.\n\nThe war began in 2022.\n");
  env = {
    ...(await freshCliEnv()),
    DEFAULT_MODEL: `local:${model}`,
    LOCAL_THREADS: "1",
    LOCAL_CONTEXT_SIZE: "16384",
  };
});

describe(`counterpoint debate on ${backend}`, () => {
  it("streams the debate's events as JSON lines and stores it", async () => {
    const r = await cli(
      ["debate", "The boxer sold his medal for the 2022 war.", "--gold-file", gold, "--variant", "single", "--json"],
      env,
    );
    expect(r.stderr).toBe("");
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const types = lines.map((l) => l.type);
    expect(types[0]).toBe("status");
    expect(types).toContain("delta");
    const firstEnd = lines.find((l) => l.type === "turn-end");
    const deltas = lines
      .filter((l) => l.type === "delta" && l.seq === firstEnd.turn.seq)
      .map((l) => l.text)
      .join("");
    expect(deltas).toBe(firstEnd.turn.content);
    const result = lines.at(-1).result;
    expect(result.status).toBe("completed");
    expect(result.evidence.map((e: { text: string }) => e.text)).toEqual([
      "The boxer auctioned his medal in 2012.",
      "The war began in 2022.",
    ]);
    expect(result.turns[0]).toMatchObject({
      role: "judge",
      phase: "verdict",
      status: "completed",
      content: firstEnd.turn.content,
    });
    // Random weights write no verdict: it is recorded as such, never guessed.
    expect(result.verdict.label).toBe("UNPARSED");
    expect(r.code).toBe(0);
  });

  it("says where evidence must come from", async () => {
    const r = await cli(["debate", "The boxer sold his medal for the 2022 war."], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--corpus <name> or --gold-file <file>/);
  });

  it("names the field when the request is invalid", async () => {
    const r = await cli(["debate", "Short", "--gold-file", gold], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/claim: Write the claim as a full sentence/);
  });

  it("resolves --protocol through the registry: an unknown one is refused with the known ones, and the protocol's own schema names a bad option", async () => {
    const unknown = await cli(
      ["debate", "The boxer sold his medal for the 2022 war.", "--gold-file", gold, "--protocol", "tool-madd"],
      env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/protocol: There is no debate protocol "tool-madd"\. Choose a protocol: radar/);
    const bad = await cli(
      [
        "debate",
        "The boxer sold his medal for the 2022 war.",
        "--gold-file",
        gold,
        "--protocol",
        "radar",
        "--variant",
        "five-agent",
      ],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/config\.variant: RADAR \(role-played debate with early stopping\): variant: /);
  });
});
