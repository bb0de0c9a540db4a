import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseInUseError, openDatabase, pgvectorVersion, type DbHandle } from "@/db/client";
import { applyMigrations, migrationStatus } from "@/db/migrate";
import * as s from "@/db/schema";
import { LATEST_MIGRATION, backend, freshDatabase, MIGRATIONS } from "./test-db";

let h: DbHandle & { config: Awaited<ReturnType<typeof freshDatabase>>["config"] };

beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

/** The message of the error a failed statement threw, however the driver wraps it. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return `${err.message} ${err.cause?.message ?? ""}`;
  }
  throw new Error("expected the statement to fail");
}

async function seedCorpus() {
  const [corpus] = await h.db
    .insert(s.corpora)
    .values({ name: `c-${crypto.randomUUID()}` })
    .returning();
  const [doc] = await h.db
    .insert(s.documents)
    .values({ corpusId: corpus!.id, externalId: "doc-1", title: "Budget", contentHash: "h1" })
    .returning();
  const texts = [
    "The city council approved a budget increase for schools in 2012.",
    "Medals were auctioned to raise money for children's hospitals.",
    "Unemployment fell sharply during the following year.",
  ];
  const rows = await h.db
    .insert(s.passages)
    .values(
      texts.map((text, i) => ({
        documentId: doc!.id,
        corpusId: corpus!.id,
        externalId: `doc-1#${i}`,
        ordinal: i,
        text,
      })),
    )
    .returning();
  return { corpus: corpus!, doc: doc!, passages: rows };
}

describe(`database on ${backend}`, () => {
  it("is migrated, with pgvector installed", async () => {
    expect(h.backend).toBe(backend);
    expect(await pgvectorVersion(h.db)).toMatch(/^0\.\d+\.\d+$/);
    const status = await migrationStatus(h, MIGRATIONS);
    expect(status).toMatchObject({ applied: status.available, pending: 0, latest: LATEST_MIGRATION });
    expect(status.available).toBeGreaterThan(0);
  });

  it("applies migrations idempotently", async () => {
    await applyMigrations(h, MIGRATIONS);
    const rows = await h.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(rows.rows[0]!.n).toBe((await migrationStatus(h, MIGRATIONS)).available);
  });

  it("keeps a full-text vector of every passage, searchable with English stemming", async () => {
    const { corpus } = await seedCorpus();
    const hits = await h.db
      .select({ text: s.passages.text })
      .from(s.passages)
      .where(
        sql`${s.passages.corpusId} = ${corpus.id} and ${s.passages.tsv} @@ websearch_to_tsquery('english', 'auction medal')`,
      );
    expect(hits.map((r) => r.text)).toEqual(["Medals were auctioned to raise money for children's hospitals."]);
  });

  it("stores vectors of several models side by side and searches one model through its own HNSW index", async () => {
    const { passages } = await seedCorpus();
    const [p0, p1, p2] = passages.map((p) => p.id);
    await h.db.insert(s.passageEmbeddings).values([
      { passageId: p0!, model: "test:a", dim: 3, embedding: [1, 0, 0] },
      { passageId: p1!, model: "test:a", dim: 3, embedding: [0.9, 0.1, 0] },
      { passageId: p2!, model: "test:a", dim: 3, embedding: [0, 0, 1] },
      { passageId: p0!, model: "test:b", dim: 4, embedding: [0, 1, 0, 0] },
    ]);
    await h.db.execute(
      sql.raw(
        `create index if not exists pe_hnsw_test_a on passage_embeddings using hnsw ((embedding::vector(3)) vector_cosine_ops) where model = 'test:a'`,
      ),
    );
    const nearest = await h.db.execute<{ passage_id: number; distance: number }>(sql`
      select passage_id, (embedding::vector(3)) <=> ${"[1,0,0]"}::vector(3) as distance
      from passage_embeddings where model = 'test:a'
      order by (embedding::vector(3)) <=> ${"[1,0,0]"}::vector(3) limit 2`);
    expect(nearest.rows.map((r) => Number(r.passage_id))).toEqual([p0, p1]);
    expect(Number(nearest.rows[0]!.distance)).toBeCloseTo(0, 6);

    // The planner must be able to use the per-model expression index for that query shape.
    await h.db.execute(sql`set enable_seqscan = off`);
    const plan = await h.db.execute<{ "QUERY PLAN": string }>(sql`explain
      select passage_id from passage_embeddings where model = 'test:a'
      order by (embedding::vector(3)) <=> '[1,0,0]'::vector(3) limit 2`);
    await h.db.execute(sql`set enable_seqscan = on`);
    expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/pe_hnsw_test_a/);
  });

  it("refuses a vector whose length differs from its recorded dimension", async () => {
    const { passages } = await seedCorpus();
    const msg = await failure(
      h.db
        .insert(s.passageEmbeddings)
        .values({ passageId: passages[0]!.id, model: "test:a", dim: 3, embedding: [1, 2, 3, 4] }),
    );
    expect(msg).toMatch(/passage_embeddings_dim_check/);
  });

  it("keeps a debate's turns in order, one per sequence number, and deletes them with the debate", async () => {
    const [claim] = await h.db.insert(s.claims).values({ text: "Schools got more money." }).returning();
    const [debate] = await h.db
      .insert(s.debates)
      .values({
        claimId: claim!.id,
        protocol: "radar",
        variant: "expertise",
        config: { rounds: 3 },
        models: { judge: "openai:gpt-4o-mini" },
      })
      .returning();
    expect(debate!.status).toBe("queued");
    await h.db.insert(s.turns).values([
      { debateId: debate!.id, seq: 1, round: 1, phase: "opening", role: "politician", content: "Yes [E1]." },
      { debateId: debate!.id, seq: 2, round: 1, phase: "opening", role: "scientist", content: "Context missing [E2]." },
    ]);
    expect(
      await failure(
        h.db.insert(s.turns).values({ debateId: debate!.id, seq: 2, round: 1, phase: "opening", role: "journalist" }),
      ),
    ).toMatch(/turns_debate_seq_idx|duplicate key/);
    await h.db.insert(s.verdicts).values({ debateId: debate!.id, label: "HALF-TRUE", reason: "E2 dates it to 2012." });
    // A judge panel's individual verdicts sit beside the final one; a second final one is refused.
    await h.db
      .insert(s.verdicts)
      .values({ debateId: debate!.id, label: "FALSE", isFinal: false, judgeRole: "judge-2" });
    expect(await failure(h.db.insert(s.verdicts).values({ debateId: debate!.id, label: "TRUE" }))).toMatch(
      /verdicts_final_idx|duplicate key/,
    );
    expect(
      await failure(
        h.db
          .update(s.debates)
          .set({ status: "paused" as never })
          .where(eq(s.debates.id, debate!.id)),
      ),
    ).toMatch(/debates_status_check/);

    await h.db.delete(s.debates).where(eq(s.debates.id, debate!.id));
    expect(await h.db.select().from(s.turns).where(eq(s.turns.debateId, debate!.id))).toHaveLength(0);
    expect(await h.db.select().from(s.verdicts).where(eq(s.verdicts.debateId, debate!.id))).toHaveLength(0);
  });

  it("only accepts the four user roles", async () => {
    const [u] = await h.db
      .insert(s.users)
      .values({ email: `a-${crypto.randomUUID()}@newsroom.test` })
      .returning();
    await h.db.insert(s.userRoles).values([
      { userId: u!.id, role: "annotator" },
      { userId: u!.id, role: "journalist" },
    ]);
    expect(await failure(h.db.insert(s.userRoles).values({ userId: u!.id, role: "superuser" as never }))).toMatch(
      /user_roles_role_check/,
    );
  });
});

// Backend-specific behaviour is only defined on its backend, so neither run reports skipped tests.
if (backend === "pglite")
  describe("embedded database guard", () => {
    it("refuses a second process-level open of the same data directory", async () => {
      if (h.config.backend !== "pglite") return;
      const fs = await import("node:fs");
      const path = await import("node:path");
      const { spawn } = await import("node:child_process");
      // Our own process holds the lock; pretend another live process does.
      const other = spawn("sleep", ["30"], { stdio: "ignore" });
      const pid = other.pid!;
      const lock = path.join(h.config.dataDir, "counterpoint.lock");
      const mine = fs.readFileSync(lock, "utf8");
      fs.writeFileSync(lock, String(pid));
      try {
        await expect(openDatabase(h.config, { migrate: false })).rejects.toThrow(DatabaseInUseError);
        await expect(openDatabase(h.config, { migrate: false })).rejects.toThrow(
          /in another process \(pid \d+\).*DATABASE_URL/,
        );
      } finally {
        other.kill();
        fs.writeFileSync(lock, mine);
      }
    });

    it("takes over the lock of a process that died", async () => {
      if (h.config.backend !== "pglite") return;
      const fs = await import("node:fs");
      const os = await import("node:os");
      const path = await import("node:path");
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-stale-"));
      fs.writeFileSync(path.join(dir, "counterpoint.lock"), "999999");
      const other = await openDatabase({ backend: "pglite", dataDir: dir }, { migrate: false });
      expect(fs.readFileSync(path.join(dir, "counterpoint.lock"), "utf8")).toBe(String(process.pid));
      await other.close();
      expect(fs.existsSync(path.join(dir, "counterpoint.lock"))).toBe(false);
    });
  });

if (backend === "postgres")
  describe("several processes on one PostgreSQL", () => {
    it("serialise concurrent migrations instead of failing", async () => {
      if (h.config.backend !== "postgres") return;
      const others = await Promise.all([1, 2, 3].map(() => openDatabase(h.config, { migrate: false })));
      try {
        await Promise.all(others.map((o) => applyMigrations(o, MIGRATIONS)));
        expect((await migrationStatus(others[0]!, MIGRATIONS)).pending).toBe(0);
      } finally {
        await Promise.all(others.map((o) => o.close()));
      }
    });
  });
