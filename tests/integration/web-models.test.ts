import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { count } from "drizzle-orm";
import { signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import { startDebateAction } from "@/app/debates/actions";
import { createRunAction } from "@/app/eval/new/actions";
import { freshDatabase } from "./test-db";

/*
 * The web forms may only pick models the server's configuration names. A file path, a preset that
 * would be downloaded, or a provider the server has no key for is refused before anything is
 * stored or run: no debate or run row, no file opened, no request sent.
 */

let h: DbHandle;
let token: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-webmodels-"));
const cacheDir = path.join(dataDir, "models");
const fetches: string[] = [];

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("LOCAL_MODEL_CACHE_DIR", cacheDir);
  vi.stubEnv("DEFAULT_MODEL", "openai:gpt-4o-mini");
  vi.stubEnv("ROLE_MODELS", "judge=openai:gpt-4o");
  vi.stubEnv("WEB_MODELS", "openai:gpt-4.1-mini");
  vi.stubEnv("OPENAI_API_KEY", "sk-test");
  vi.stubEnv("ANTHROPIC_API_KEY", "");
  resetConfigForTests();
  vi.stubGlobal("fetch", async (url: unknown) => {
    fetches.push(String(url));
    throw new Error("no network in this test");
  });
  const u = await createUser(h.db, {
    email: "checker@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  token = (await createSession(h.db, u.id)).token;
});
afterEach(() => {
  expect(fetches).toEqual([]);
  expect(fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []).toEqual([]);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  resetConfigForTests();
  await h?.close();
});

const BAD = {
  "a file path": "local:/etc/passwd",
  "a missing file path": "local:/no/such/model.gguf",
  "a preset that would be downloaded": "local:qwen2.5-1.5b-instruct-q4_k_m",
  "an unconfigured provider": "anthropic:claude-haiku-4-5",
  "an unconfigured server": "openai-compatible:intranet/llama",
};

const form = (values: Record<string, string | File>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};
const debates = async () => (await h.db.select({ n: count() }).from(s.debates))[0]!.n;
const runs = async () => (await h.db.select({ n: count() }).from(s.evalRuns))[0]!.n;

/** The words every refusal must contain: which models are allowed and how an admin adds one. */
function expectRefusal(error: string | undefined, id: string) {
  expect(error).toMatch(/not a model this server offers/);
  expect(error).toMatch(/openai:gpt-4o-mini, openai:gpt-4o, openai:gpt-4\.1-mini/);
  expect(error).toMatch(/WEB_MODELS/);
  // No oracle: nothing about the file, its contents or whether it exists.
  expect(error!.replace(id, "")).not.toMatch(/root:|exist|not found|GGUF|magic|downloading|ENOENT|API_KEY/i);
}

describe("models picked on the web", () => {
  for (const [what, id] of Object.entries(BAD)) {
    it(`refuses ${what} for a debate, storing and running nothing`, async () => {
      signedInAs(token);
      const before = await debates();
      const state = await startDebateAction(
        {},
        form({
          claim: "The boxer sold his medal.",
          evidenceMode: "gold",
          goldEvidence: "A passage.",
          variant: "single",
          model_judge: id,
        }),
      );
      expectRefusal(state.error, id);
      expect(state.field).toBe("models.judge");
      expect(await debates()).toBe(before);
    });

    it(`refuses ${what} for an evaluation run, storing and running nothing`, async () => {
      signedInAs(token);
      const claims = new File(
        [
          JSON.stringify({
            id: "c1",
            claim: "The boxer sold his medal.",
            label: "FALSE",
            gold_evidence: [{ text: "A passage." }],
          }) + "\n",
        ],
        "claims.jsonl",
      );
      for (const field of ["model_judge", "model_debaters"]) {
        const state = await createRunAction({}, form({ claims, evidence: "gold", variant: "expertise", [field]: id }));
        expectRefusal(state.error, id);
      }
      expect(await runs()).toBe(0);
    });
  }

  it("gives the same answer for a file that exists and one that does not", async () => {
    signedInAs(token);
    const a = await startDebateAction(
      {},
      form({
        claim: "The boxer sold his medal.",
        evidenceMode: "gold",
        goldEvidence: "A passage.",
        variant: "single",
        model_judge: "local:/etc/passwd",
      }),
    );
    const b = await startDebateAction(
      {},
      form({
        claim: "The boxer sold his medal.",
        evidenceMode: "gold",
        goldEvidence: "A passage.",
        variant: "single",
        model_judge: "local:/etc/nonexistent",
      }),
    );
    expect(a.error!.replace("/etc/passwd", "X")).toBe(b.error!.replace("/etc/nonexistent", "X"));
  });
});
