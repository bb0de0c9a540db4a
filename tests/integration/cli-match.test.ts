import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import * as s from "@/db/schema";
import { runCli } from "../helpers/cli";
import { EARLIER, PARAPHRASE, seedEarlierCheck } from "../helpers/earlier-check";
import { backend, freshCliEnv, MIGRATIONS } from "./test-db";

/*
 * `counterpoint debate` matches the claim first, as the forms do: with an earlier check and no
 * choice it prints the check and starts nothing (exit 3); --attach-matches attaches it and starts;
 * --json puts the matches on a line of their own; --no-match skips matching.
 */

let env: Record<string, string>;
let gold = "";
let earlierId = "";

async function database() {
  return openDatabase(
    env.DATABASE_URL
      ? { backend: "postgres", url: env.DATABASE_URL }
      : { backend: "pglite", dataDir: path.join(env.DATA_DIR!, "pglite") },
    { migrationsDir: MIGRATIONS },
  );
}

beforeAll(async () => {
  env = {
    ...(await freshCliEnv()),
    // The debate calls a model nobody listens on: it fails at once, and no request leaves the machine.
    OPENAI_COMPATIBLE_LAB_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_COMPATIBLE_LAB_MODEL: "lab-model",
    DEFAULT_MODEL: "openai-compatible:lab",
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-cli-match-"));
  gold = path.join(dir, "gold.txt");
  fs.writeFileSync(gold, "The tower was 312 metres tall when it opened in 1889.\n");
  const h = await database();
  try {
    earlierId = await seedEarlierCheck(h.db);
  } finally {
    await h.close();
  }
});

describe(`counterpoint debate matches the claim first (${backend})`, () => {
  it("prints the earlier check and starts nothing until told what to do with it", async () => {
    const r = await runCli(
      ["debate", PARAPHRASE, "--gold-file", gold, "--variant", "single", "--date", "2024-06-01"],
      env,
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("This claim was checked before");
    expect(r.stdout).toContain(EARLIER);
    expect(r.stdout).toMatch(/False · by .+, checked 2024-05-21/);
    expect(r.stdout).toMatch(/Their claim was made 2024-05-20; yours on 2024-06-01\./);
    expect(r.stderr).toMatch(/nothing was started.*--attach-matches.*--debate-anyway.*--no-match/s);
  });

  it("with --attach-matches --json: the matches on their own line, the check in the evidence, the choice stored", async () => {
    const r = await runCli(
      ["debate", PARAPHRASE, "--gold-file", gold, "--variant", "single", "--attach-matches", "--json"],
      env,
    );
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "matches", matches: [{ ref: earlierId, rating: "False" }] });
    const result = lines.at(-1).result;
    expect(result.matchDecision).toMatchObject({ choice: "attach-as-evidence", attached: [{ ref: earlierId }] });
    expect(result.evidence.map((e: { source: string }) => e.source)).toEqual(["gold", "earlier-check"]);
  });

  it("with --no-match: no matching, nothing stored about it", async () => {
    const r = await runCli(
      ["debate", PARAPHRASE, "--gold-file", gold, "--variant", "single", "--no-match", "--json"],
      env,
    );
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.type === "matches")).toBe(false);
    expect(lines.at(-1).result.matchDecision).toBeNull();
    // The first run stored nothing: the earlier debate and the two started since.
    const h = await database();
    try {
      expect((await h.db.select().from(s.debates)).length).toBe(3);
    } finally {
      await h.close();
    }
  });
});
