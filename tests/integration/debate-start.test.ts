import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { loadDebate } from "@/db/queries/debates";
import { ingestRecords } from "@/lib/corpus/ingest";
import { createDebate, DebateRequestError } from "@/lib/debate/start";
import { parseDebateForm } from "@/lib/debate/form";
import { MAX_DEBATE_EVIDENCE } from "@/lib/debate/evidence";
import { resetConfigForTests } from "@/lib/config";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

let h: DbHandle;
const embedder = fakeEmbedder({ id: "test:start", dim: 16 });

beforeAll(async () => {
  h = await freshDatabase();
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  resetConfigForTests();
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "auction",
          text: "The boxer auctioned his Olympic medal in 2012 for a children's hospital.",
          publishedAt: new Date("2012-06-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "war",
          text: "In 2022 the war displaced millions of children.",
          publishedAt: new Date("2022-03-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "check",
          text: "Fact check: the medal auction was in 2012, not for the 2022 war.",
          publishedAt: new Date("2023-01-10"),
        },
      },
    ],
    { corpus: "news", embedder, source: "t", kind: "records" },
  );
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

async function requestError(raw: unknown) {
  try {
    await createDebate(h.db, raw);
  } catch (e) {
    if (e instanceof DebateRequestError) return { message: e.message, field: e.field };
    throw e;
  }
  throw new Error("expected a DebateRequestError");
}

describe("starting a debate", () => {
  it("freezes the evidence retrieved for the claim, leaving out what was published after its date", async () => {
    const id = await createDebate(
      h.db,
      {
        claim: "The boxer sold his medal to help children in the 2022 war.",
        claimDate: "2022-05-01",
        evidence: { mode: "retrieved", corpus: "news", k: 5 },
      },
      { embedder },
    );
    const d = (await loadDebate(h.db, id))!;
    expect(d.debate).toMatchObject({
      status: "queued",
      protocol: "radar",
      variant: "expertise",
      evidenceMode: "retrieved",
    });
    expect(d.debate.models).toEqual({
      politician: "openai-compatible:lab",
      scientist: "openai-compatible:lab",
      judge: "openai-compatible:lab",
    });
    expect(d.debate.thresholds).toEqual({ tauS: -0.15, tauV: 0.7, source: "default" });
    expect(d.debate.promptsHash).toMatch(/^[0-9a-f]{16}$/);
    expect(d.evidence.map((e) => e.externalId?.split("#")[0]).sort()).toEqual(["auction", "war"]);
    expect(d.evidence.map((e) => e.rank)).toEqual([1, 2]);
    expect(d.evidence.every((e) => e.source === "retrieved" && e.passageId !== null)).toBe(true);
    expect(d.claim.claimDate?.toISOString()).toBe("2022-05-01T00:00:00.000Z");
  });

  it("takes gold evidence one passage per paragraph, and per-role models from the form", async () => {
    const id = await createDebate(
      h.db,
      parseDebateForm({
        claim: "The boxer sold his medal to help children in the 2022 war.",
        evidenceMode: "gold",
        goldEvidence: "First passage.\n\n  Second passage.  \n\n\n",
        variant: "three-agent",
        rebuttals: "2",
        tauV: "0.8",
        model_judge: "openai-compatible:lab/bigger-judge",
      }),
    );
    const d = (await loadDebate(h.db, id))!;
    expect(d.evidence.map((e) => [e.rank, e.text, e.source])).toEqual([
      [1, "First passage.", "gold"],
      [2, "Second passage.", "gold"],
    ]);
    expect(d.debate.models.judge).toBe("openai-compatible:lab/bigger-judge");
    expect(Object.keys(d.debate.models).sort()).toEqual(["journalist", "judge", "politician", "scientist"]);
    expect(d.debate.config).toMatchObject({ variant: "three-agent", rebuttals: 2, thresholds: { tauV: 0.8 } });
    expect(d.debate.thresholds).toEqual({ tauS: -0.15, tauV: 0.8, source: "configured" });
  });

  it("says what is wrong and where, and stores nothing", async () => {
    expect(await requestError({ claim: "Short", evidence: { mode: "gold", text: "x" } })).toEqual({
      field: "claim",
      message: expect.stringMatching(/at least 10 characters/),
    });
    expect(await requestError({ claim: "x".repeat(2001), evidence: { mode: "gold", text: "x" } })).toMatchObject({
      field: "claim",
      message: expect.stringMatching(/2,001 characters; the limit is 2,000/),
    });
    expect(
      await requestError({
        claim: "A claim long enough.",
        claimDate: "2022-13-40",
        evidence: { mode: "gold", text: "x" },
      }),
    ).toMatchObject({ field: "claimDate" });
    expect(
      await requestError({ claim: "A claim long enough.", evidence: { mode: "retrieved", corpus: "nope", k: 5 } }),
    ).toMatchObject({ field: "corpus", message: expect.stringMatching(/no corpus named "nope"/) });
    expect(
      await requestError({
        claim: "A claim long enough.",
        evidence: { mode: "gold", text: "x" },
        models: { judge: "anthropic:claude-haiku-4-5" },
      }),
    ).toMatchObject({
      field: "models.judge",
      message: expect.stringMatching(/ANTHROPIC_API_KEY is not set/),
    });
    expect(
      await requestError({
        claim: "A claim long enough.",
        evidence: { mode: "gold", text: "x" },
        config: { rebuttals: 9 },
      }),
    ).toMatchObject({ field: "config.rebuttals" });
    const { rows } = await h.db.execute<{ n: number }>(
      `select count(*)::int as n from claims where text = 'A claim long enough.'` as never,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("refuses 16,000 evidence paragraphs with a message instead of crashing, and takes the most a debate allows", async () => {
    const paragraphs = (n: number) =>
      Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join("\n\n");
    // 16,000 paragraphs fit the 100,000-character limit; storing them overflowed the stack before.
    expect(
      await requestError({
        claim: "The boxer sold his medal for charity.",
        evidence: { mode: "gold", text: paragraphs(16_000) },
      }),
    ).toEqual({
      field: "evidence.text",
      message: expect.stringMatching(/The evidence has 16,000 passages; a debate takes at most 300/),
    });
    const id = await createDebate(h.db, {
      claim: "The boxer sold his medal for charity.",
      evidence: { mode: "gold", text: paragraphs(MAX_DEBATE_EVIDENCE) },
    });
    expect((await loadDebate(h.db, id))!.evidence).toHaveLength(MAX_DEBATE_EVIDENCE);
  });
});
