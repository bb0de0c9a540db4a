import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { writeTinyGguf } from "../helpers/tiny-gguf";
import { backend, freshCliEnv } from "./test-db";

/**
 * `counterpoint debate --protocol zofia --article-file ...`: a news article from a file, with its
 * headline and address, checked with no corpus at all (ZoFia finds its own evidence). A local model
 * with random weights stands in; the settings keep the pipeline short.
 */

let env: Record<string, string>;
let article: string;
beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-cli-zofia-"));
  const model = await writeTinyGguf(path.join(dir, "tiny.gguf"), { seed: 11, contextLength: 16384 });
  article = path.join(dir, "article.txt");
  fs.writeFileSync(
    article,
    "Governor Elena Marsh raised $2.4 million at a charity auction in Millbrook for families hit by the Cedar River flood.\n\nThe auction was held on Saturday in Millbrook. Governor Marsh said every dollar would go to the flood families.\n",
  );
  env = { ...(await freshCliEnv()), DEFAULT_MODEL: `local:${model}`, LOCAL_THREADS: "1", LOCAL_CONTEXT_SIZE: "16384" };
});

describe(`counterpoint debate --protocol zofia on ${backend}`, () => {
  it("checks an article from a file with its headline, date and address, without a corpus", async () => {
    const config = { maxRounds: 1, linguist: false, expert: false, claimVerification: false, maxTurnTokens: 50 };
    const r = await runCli(
      [
        "debate",
        "--protocol",
        "zofia",
        "--article-file",
        article,
        "--title",
        "Governor's auction raises $2.4 million",
        "--date",
        "2024-05-04",
        "--url",
        "https://news.example.org/auction",
        "--config",
        JSON.stringify(config),
        "--json",
      ],
      env,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!).result;
    expect(result).toMatchObject({ status: "completed", protocol: "zofia" });
    expect(result.claim).toMatchObject({
      title: "Governor's auction raises $2.4 million",
      url: "https://news.example.org/auction",
    });
    expect(result.claim.text).toContain("Governor Elena Marsh raised $2.4 million");
    const phases = result.turns.map((t: { phase: string }) => t.phase);
    // The pipeline ran: entities, keywords, a search, then one exchange and (the last round) the judge's final call.
    expect(phases).toEqual(expect.arrayContaining(["ner", "keywords", "web", "argument", "judge-final"]));
    const speakers = result.turns
      .filter((t: { phase: string }) => t.phase === "argument")
      .map((t: { role: string }) => t.role);
    expect(speakers).toEqual(["pro", "con"]);
    expect(["REAL", "FAKE", "UNPARSED"]).toContain(result.verdict.label);
  });

  it("refuses an article given twice, and RADAR without evidence, saying what to give", async () => {
    const both = await runCli(
      ["debate", "Some claim text here.", "--protocol", "zofia", "--article-file", article],
      env,
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/either as the argument or with --article-file, not both/);
    const radar = await runCli(["debate", "The boxer sold his Olympic medal in 2012."], env);
    expect(radar.code).toBe(1);
    expect(radar.stderr).toMatch(/--corpus <name> or --gold-file <file>/);
  });
});
