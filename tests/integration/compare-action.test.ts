import { Redirect, signedInAs, useDatabase } from "../helpers/next-request";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { ingestRecords } from "@/lib/corpus/ingest";
import { resetConfigForTests } from "@/lib/config";
import { startComparisonAction, estimateComparisonAction } from "@/app/compare/actions";
import { debateQueue } from "@/lib/debate/queue";
import { backend, freshDatabase } from "./test-db";

/*
 * "Compare methods" as its server action sees the form: refusals name the field and keep what was
 * typed, store nothing and use up none of the person's debates; a good request stores one claim,
 * one debate per method, counts each against the start limit and goes to the comparison page.
 */

let h: DbHandle;
let checker = "";
let annotator = "";
let racer = "";
const BENCH_CORPUS = "newsroom";
const CLAIM =
  "Olympic champion Oleksandr Petrenko sold his gold medal in Kyiv to help children displaced by the 2022 war.";

function form(values: Record<string, string>, methods: string[]) {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  for (const m of methods) f.append("method", m);
  return f;
}
const counts = async () => ({
  comparisons: (await h.db.select().from(s.comparisons)).length,
  claims: (await h.db.select().from(s.claims)).length,
  debates: (await h.db.select().from(s.debates)).length,
  hits: (await h.db.select().from(s.rateLimits)).reduce((a, r) => a + r.count, 0),
});

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  // Debates started by the good request call a model nobody listens on: they fail at once, and no request leaves the machine.
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  vi.stubEnv("WEB_SEARCH_PROVIDER", "");
  vi.stubEnv("TAVILY_API_KEY", "");
  vi.stubEnv("DEBATE_RATE_LIMIT", "4/hour");
  // As on a server: on PostgreSQL the debates go to the queue the configuration names (no worker runs here).
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  // Embedded with the server's own encoder, as a corpus loaded from the app is: the action retrieves with it.
  const docs = [
    "Oleksandr Petrenko auctioned his Olympic gold medal in Kyiv in 2012; a children's fund received the money.",
    "In 2022 the war displaced millions of children; aid agencies appealed for donations.",
    "Fact check: the medal auction was in 2012, years before the 2022 war.",
    "Collectors in London bid for Olympic medals online.",
  ];
  await ingestRecords(
    h.db,
    docs.map((text, i) => ({ kind: "document" as const, document: { id: `n${i}`, title: `News ${i}`, text } })),
    { corpus: BENCH_CORPUS, source: "t", kind: "records" },
  );
  const c = await createUser(h.db, {
    email: "checker@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  const a = await createUser(h.db, {
    email: "annotator@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["annotator"],
  });
  checker = (await createSession(h.db, c.id)).token;
  const r = await createUser(h.db, {
    email: "racer@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  racer = (await createSession(h.db, r.id)).token;
  annotator = (await createSession(h.db, a.id)).token;
});
afterAll(async () => {
  // Let the debates the good request started finish (they fail fast) before the database closes.
  for (let i = 0; i < 200; i++) {
    const running = await h.db.select().from(s.debates).where(eq(s.debates.status, "running"));
    if (!running.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (backend === "postgres") await debateQueue(h).close();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe(`starting a comparison from the form (${backend})`, () => {
  it("refuses with the field and the reason, keeps what was typed, and stores and counts nothing", async () => {
    const before = await counts();
    signedInAs(annotator);
    expect(
      (await startComparisonAction({}, form({ claim: CLAIM, corpus: BENCH_CORPUS }, ["radar", "proclaim"]))).error,
    ).toMatch(/fact-checker or an admin/);

    signedInAs(checker);
    const one = await startComparisonAction(
      {},
      form({ claim: CLAIM, corpus: BENCH_CORPUS, title: "A headline" }, ["radar"]),
    );
    expect(one).toMatchObject({ field: "methods", methods: ["radar"] });
    expect(one.error).toMatch(/at least 2 methods/);
    expect(one.values).toMatchObject({ claim: CLAIM, title: "A headline", corpus: BENCH_CORPUS });

    const five = await startComparisonAction(
      {},
      form({ claim: CLAIM, corpus: BENCH_CORPUS }, ["radar", "proclaim", "zofia", "tool-mad", "radar"]),
    );
    expect(five.error).toMatch(/at most 4 methods/);

    const short = await startComparisonAction(
      {},
      form({ claim: "Too short", corpus: BENCH_CORPUS }, ["radar", "proclaim"]),
    );
    expect(short.field).toBe("claim");
    expect(short.error).toMatch(/at least 10 characters/);

    const noCorpus = await startComparisonAction({}, form({ claim: CLAIM, corpus: "" }, ["zofia", "proclaim"]));
    expect(noCorpus.field).toBe("corpus");
    expect(noCorpus.error).toMatch(/PROClaim reads evidence from a corpus: choose one/);

    const preset = await startComparisonAction(
      {},
      form({ claim: CLAIM, corpus: BENCH_CORPUS, preset_proclaim: "fastest" }, ["radar", "proclaim"]),
    );
    expect(preset.field).toBe("methods.1.preset");
    expect(preset.error).toMatch(/PROClaim has no preset "fastest"; choose one of: .*single-judge/);

    const ensemble = await startComparisonAction(
      {},
      form({ claim: CLAIM, corpus: BENCH_CORPUS, ensemble: "average" }, ["radar", "proclaim"]),
    );
    expect(ensemble.field).toBe("ensemble");
    expect(ensemble.error).toMatch(/"majority", "confidence-weighted" or none/);

    const date = await startComparisonAction(
      {},
      form({ claim: CLAIM, corpus: BENCH_CORPUS, claimDate: "last week" }, ["radar", "proclaim"]),
    );
    expect(date.field).toBe("claimDate");

    expect(await counts()).toEqual(before);
  });

  it("starts every method on one stored claim, counts each debate, and refuses a comparison that would pass the limit", async () => {
    signedInAs(checker);
    const before = await counts();
    let to = "";
    try {
      await startComparisonAction(
        {},
        form({ claim: CLAIM, corpus: BENCH_CORPUS, ensemble: "majority", preset_proclaim: "single-judge" }, [
          "radar",
          "tool-mad",
          "proclaim",
        ]),
      );
    } catch (e) {
      if (!(e instanceof Redirect)) throw e;
      to = e.url;
    }
    const id = to.match(/^\/compare\/([0-9a-f-]{36})$/)?.[1];
    expect(id, `redirected to ${to}`).toBeTruthy();
    const [cmp] = await h.db.select().from(s.comparisons).where(eq(s.comparisons.id, id!));
    expect(cmp!.ensemble).toBe("majority");
    expect(cmp!.methods.map((m) => [m.protocol, m.preset])).toEqual([
      ["radar", null],
      ["tool-mad", null],
      ["proclaim", "single-judge"],
    ]);
    const debates = await h.db.select().from(s.debates).where(eq(s.debates.comparisonId, id!));
    expect(debates).toHaveLength(3);
    expect(new Set(debates.map((d) => d.claimId))).toEqual(new Set([cmp!.claimId]));
    // Started the normal way: queued for the workers on PostgreSQL, claimed by this process on PGlite.
    if (backend === "postgres") expect(debates.map((d) => d.status)).toEqual(["queued", "queued", "queued"]);
    else expect(debates.every((d) => d.status !== "queued")).toBe(true);
    // The preset reached the stored configuration: one judge instead of three.
    expect(debates.find((d) => d.protocol === "proclaim")!.config.panelSize).toBe(1);
    const after = await counts();
    expect(after.claims - before.claims).toBe(1);
    expect(after.hits - before.hits).toBe(3);

    // 3 of 4 used: two more debates would pass the limit; nothing is stored or counted.
    const refused = await startComparisonAction(
      {},
      form({ claim: CLAIM, corpus: BENCH_CORPUS }, ["radar", "proclaim"]),
    );
    expect(refused.error).toMatch(/starts 2 debates, and you have 1 of 4 left/);
    expect(await counts()).toEqual(after);
  });

  it("admits comparisons started in parallel only while all their debates fit the limit: never more debates than the limit", async () => {
    signedInAs(racer);
    const racerId = (await h.db.select().from(s.users).where(eq(s.users.email, "racer@x.org")))[0]!.id;
    // Six comparisons of 2 methods at once against a limit of 4 debates: exactly two get in.
    const results = await Promise.all(
      Array.from({ length: 6 }, async () => {
        try {
          return await startComparisonAction({}, form({ claim: CLAIM, corpus: BENCH_CORPUS }, ["radar", "tool-mad"]));
        } catch (e) {
          if (e instanceof Redirect) return { started: e.url };
          throw e;
        }
      }),
    );
    const started = results.filter((r) => "started" in r);
    expect(started).toHaveLength(2);
    for (const r of results.filter((r) => !("started" in r)))
      expect((r as { error?: string }).error).toMatch(/starts 2 debates, and you have 0 of 4 left/);
    expect(await h.db.select().from(s.debates).where(eq(s.debates.createdBy, racerId))).toHaveLength(4);
    const [row] = await h.db
      .select()
      .from(s.rateLimits)
      .where(eq(s.rateLimits.key, `debate-start:user:${racerId}`));
    expect(row!.count).toBe(4);
  });

  it("adds up each method's own estimate for the combined cost", async () => {
    signedInAs(checker);
    const values = { corpus: BENCH_CORPUS, preset_proclaim: "single-judge" };
    const all = await estimateComparisonAction(values, ["tool-mad", "proclaim", "radar"]);
    const toolMad = await estimateComparisonAction(values, ["tool-mad"]);
    const proclaim = await estimateComparisonAction(values, ["proclaim"]);
    const radar = await estimateComparisonAction(values, ["radar"]);
    const full = await estimateComparisonAction({ corpus: BENCH_CORPUS }, ["proclaim"]);
    if (!all.ok || !toolMad.ok || !proclaim.ok || !radar.ok || !full.ok) throw new Error("no estimate");
    expect(toolMad.llmCalls).toBeGreaterThan(0);
    // RADAR's default debate: 2 debaters x 3 phases, 2 checkpoints of 2 questions, 1 judge.
    expect(radar.llmCalls).toBe(11);
    expect(all.llmCalls).toBe(toolMad.llmCalls + proclaim.llmCalls + radar.llmCalls);
    expect(all.tokens).toBe(toolMad.tokens + proclaim.tokens + radar.tokens);
    // Every method gives its estimate now: nothing is left out of the sum.
    expect(all.missing).toEqual([]);
    // The preset reaches the estimate: one judge costs fewer calls than three.
    expect(proclaim.llmCalls).toBeLessThan(full.llmCalls);
  });
});
