import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runBin, runCli } from "../helpers/cli";
import { beforeAll, describe, expect, it } from "vitest";
import { LATEST_MIGRATION, backend, freshCliEnv } from "./test-db";

/** Runs `counterpoint` in a process of its own (see tests/helpers/cli.ts). */
const cli = runCli;

let dbEnv: Record<string, string>;
beforeAll(async () => {
  dbEnv = await freshCliEnv();
});

describe(`counterpoint CLI on ${backend}`, () => {
  it("prints help for every command", async () => {
    // Through the bin entry a user runs (tsx compiling the CLI); the other calls run the same code bundled.
    const top = await runBin(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/migrate/);
    expect(top.stdout).toMatch(/doctor/);
    for (const cmd of ["migrate", "doctor"]) {
      const r = await cli([cmd, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/--json/);
    }
  });

  it("an unknown command with --help is an error, not the general help with success", async () => {
    const r = await cli(["nosuch", "--help"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/unknown command 'nosuch'/);
  });

  it("migrates and reports the state as JSON", async () => {
    const r = await cli(["migrate", "--json"], dbEnv);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ backend, pending: 0, latest: LATEST_MIGRATION });
    expect(out.applied).toBe(out.available);
  });

  it("doctor checks the database and the embedding model, and says no LLM is configured", async () => {
    const r = await cli(["doctor", "--json"], dbEnv);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(true);
    const byName = Object.fromEntries(report.checks.map((c: { name: string }) => [c.name, c]));
    expect(byName.database.status).toBe("ok");
    expect(byName.database.detail).toMatch(/pgvector 0\.\d/);
    // Which engine runs, and that the graph built from the npm weights has the checksum recorded for it.
    expect(byName["embedding local:minilm-l6"]).toMatchObject({
      status: "ok",
      detail: expect.stringMatching(
        /^384 dimensions; runs on onnxruntime-node \(CPU, fp32 graph .*minilm-l6-fp32.*\), SHA-256 [0-9a-f]{12}… as recorded$/,
      ),
    });
    expect(report.missing.join("\n")).toMatch(/DEFAULT_MODEL/);
    // In production without PUBLIC_URL, feeds and ClaimReview have no address: said, without failing the report.
    expect(byName["public address"]).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/PUBLIC_URL is not set/),
    });
    expect(report.missing.join("\n")).toMatch(/PUBLIC_URL is not set: fact-check feeds/);
  });

  it("doctor fails a configured model that cannot work and says what to set", async () => {
    const r = await cli(["doctor"], { ...dbEnv, DEFAULT_MODEL: "anthropic:claude-haiku-4-5" });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/model anthropic:claude-haiku-4-5: ANTHROPIC_API_KEY is not set/);
  });

  it("doctor does not download a local model, and names LOCAL_MODEL_PATH", async () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "cp-models-"));
    const r = await cli(["doctor", "--json"], {
      ...dbEnv,
      DEFAULT_MODEL: "local:qwen2.5-1.5b-instruct-q4_k_m",
      LOCAL_MODEL_CACHE_DIR: cache,
    });
    expect(r.code).toBe(1);
    const check = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name.startsWith("model local:"));
    expect(check.status).toBe("missing");
    expect(check.detail).toMatch(/LOCAL_MODEL_PATH/);
    expect(fs.readdirSync(cache).filter((f) => f.endsWith(".gguf"))).toEqual([]);
  });

  it("prints its version, and its help says what each exit code means", async () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8"));
    const v = await cli(["--version"]);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const help = await cli(["--help"]);
    expect(help.stdout).toMatch(
      /Exit codes:\n\s+0 .*success[\s\S]*\n\s+1 .*failed[\s\S]*\n\s+2 .*configuration[\s\S]*\n\s+3 .*matched/,
    );
  });

  it("reports a run that does not exist without SQL, and as JSON under --json with the same exit code", async () => {
    const words = await cli(["eval", "report", "no-such-run"], dbEnv);
    expect(words.code).toBe(1);
    expect(words.stderr).toMatch(/no evaluation run no-such-run/);
    expect(words.stderr).not.toMatch(/select|Failed query|params:/i);
    const json = await cli(["eval", "report", "no-such-run", "--json"], dbEnv);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe("");
    expect(JSON.parse(json.stderr)).toEqual({
      error: { message: expect.stringMatching(/no evaluation run no-such-run/) },
    });
    // A usage error under --json is the same shape, without commander's help text after it.
    const usage = await cli(["migrate", "--json", "--nosuch"], dbEnv);
    expect(usage.code).toBe(1);
    expect(JSON.parse(usage.stderr)).toEqual({ error: { message: expect.stringMatching(/--nosuch/), code: "usage" } });
  });

  it("stops on a bad variable with its name, before touching the database", async () => {
    const r = await cli(["migrate"], { DATABASE_URL: "mysql://root@localhost/x" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/DATABASE_URL: must be a postgres:\/\//);
  });

  it("explains an unreachable PostgreSQL server", async () => {
    const r = await cli(["migrate"], { DATABASE_URL: "postgres://u:secret@127.0.0.1:1/none" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Cannot connect to PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/none/);
    expect(r.stderr).not.toMatch(/secret/);
  });
});
