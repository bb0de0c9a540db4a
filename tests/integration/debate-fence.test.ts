import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createDebateRecord } from "@/db/queries/debates";
import { ensureFenceSecret } from "@/db/queries/fence-secret";
import { resetConfigForTests } from "@/lib/config";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { fenceForDebate } from "@/lib/debate/fence";
import { radarConfigSchema, radarProtocol } from "@/lib/debate/radar/protocol";
import { runDebate } from "@/lib/debate/runner";
import { promptsHash } from "@/lib/prompts";
import { debateFence } from "@/lib/prompts/fence";
import { freshDatabase } from "./test-db";

/*
 * Issue 23: a debate's fence is derived from its id and the install's secret, so a resumed debate
 * prompts with the fence it started with (the prompts of the finished and the resumed turns agree),
 * while another debate, or another install, has a different one.
 */

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  delete process.env.FENCE_SECRET;
  resetConfigForTests();
  await h?.close();
});

async function newDebate() {
  const config = radarConfigSchema.parse({ earlyStopping: "off" });
  return createDebateRecord(h.db, {
    claim: { text: "The boxer sold his medal to help children in the 2022 war." },
    protocol: "radar",
    variant: config.variant,
    config,
    models: Object.fromEntries(radarProtocol.roles(config).map((r) => [r, "openai:gpt-4o-mini"])),
    promptsHash: promptsHash(radarProtocol.templates(config)),
    evidenceMode: "gold",
    evidence: [{ rank: 1, text: "The boxer auctioned his Olympic medal in 2012.", source: "gold" }],
  });
}

const fenceIds = (seen: Array<{ system: string; user: string }>) =>
  new Set(
    seen.flatMap((c) => [...`${c.system}\n${c.user}`.matchAll(/<<\/?[a-z-]+-([0-9a-f]{12})>>/g)].map((m) => m[1]!)),
  );

describe("a debate's fence", () => {
  it("is the same in a resumed run, derived from the debate's id and the install's secret", async () => {
    const id = await newDebate();
    const bad = scriptedModel("openai:gpt-4o-mini", { failOnCall: { n: 3, error: new Error("model exploded") } });
    expect((await runDebate(h.db, id, { resolve: () => bad.resolved })).status).toBe("failed");
    const good = scriptedModel("openai:gpt-4o-mini", {});
    expect((await runDebate(h.db, id, { resolve: () => good.resolved })).status).toBe("completed");

    const secret = await ensureFenceSecret(h.db);
    const expected = debateFence(id, secret).id;
    expect(fenceIds(bad.seen)).toEqual(new Set([expected]));
    expect(fenceIds(good.seen)).toEqual(new Set([expected]));
    // Another debate, or the same one under another secret, is fenced differently.
    expect((await fenceForDebate(h.db, await newDebate())).id).not.toBe(expected);
    expect(debateFence(id, "another install's secret, at least 32 chars").id).not.toBe(expected);
  });

  it("keeps one secret per install, made once even when asked for at the same time; FENCE_SECRET overrides it", async () => {
    const secrets = await Promise.all([ensureFenceSecret(h.db), ensureFenceSecret(h.db), ensureFenceSecret(h.db)]);
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    process.env.FENCE_SECRET = "an operator's secret of at least 32 characters";
    resetConfigForTests();
    expect((await fenceForDebate(h.db, "debate-x")).id).toBe(debateFence("debate-x", process.env.FENCE_SECRET).id);
  });
});
