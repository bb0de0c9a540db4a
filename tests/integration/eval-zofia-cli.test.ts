import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/** `eval --preset zofia-politifact` as a user runs it on the PolitiFact++ fixtures: never a real provider. */

const DATA = path.resolve(import.meta.dirname, "..", "fixtures", "datasets", "politifact_news");

let dbEnv: Record<string, string>;
beforeAll(async () => {
  dbEnv = await freshCliEnv();
  const r = await runCli(["migrate"], dbEnv);
  expect(r.code).toBe(0);
});

describe(`eval --preset zofia-politifact on ${backend}`, () => {
  it("with no model configured, stops before anything is stored and says which flag or setting gives one", async () => {
    const r = await runCli(["eval", "--preset", "zofia-politifact", "--data", DATA, "--limit", "2", "--detach"], dbEnv);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No model for role "linguist"/);
    expect(r.stderr).toMatch(
      /--model linguist=<id> \(repeatable, one per role\), or DEFAULT_MODEL=<id> for every role/,
    );
    const list = await runCli(["eval", "list"], dbEnv);
    expect(list.stdout).toMatch(/No evaluation runs yet/);
  });

  it("with a model, says what differs from the paper, previews ZoFia's cost and queues the articles", async () => {
    const env = { ...dbEnv, DEFAULT_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-test-not-used" };
    // --detach: queued, never worked, so no provider is called.
    const e = await runCli(
      [
        "eval",
        "--preset",
        "zofia-politifact",
        "--data",
        DATA,
        "--limit",
        "2",
        "--sample",
        "balanced",
        "--detach",
        "--json",
      ],
      env,
    );
    expect(e.code).toBe(0);
    expect(e.stderr).toMatch(/creating the run: 4 claims in politifact-news:.*balanced 2/);
    expect(e.stderr).toMatch(
      /zofia-politifact: The paper searched the web with Brave and read Wikipedia\. Offline, the web search is the corpus stand-in/,
    );
    expect(e.stderr).toMatch(/Before starting: 2 claims × the protocol's estimate per claim \(28 LLM calls/);
    expect(e.stderr).toMatch(
      /linguist=openai:gpt-4o-mini, expert=openai:gpt-4o-mini, extractor=openai:gpt-4o-mini, verifier=openai:gpt-4o-mini, pro=openai:gpt-4o-mini, con=openai:gpt-4o-mini, judge=openai:gpt-4o-mini/,
    );
    const queued = JSON.parse(e.stdout) as { run_id: string; items: number; skipped: unknown[] };
    expect(queued).toMatchObject({ items: 2, skipped: [] });
    const list = await runCli(["eval", "list"], env);
    expect(list.stdout).toMatch(new RegExp(`${queued.run_id}\\s+queued\\s+politifact-news · zofia · tools`));
  });
});
