import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ROWS_PER_STATEMENT } from "@/db/bulk";
import type { DbHandle } from "@/db/client";
import { claimIndexSize, insertImportedFactChecks, upsertClaimIndex } from "@/db/queries/claim-index";
import * as s from "@/db/schema";
import { evidenceOf } from "@/db/queries/fact-checks";
import { exportDebates } from "@/lib/export/debates";
import { importJsonl } from "@/lib/export/import";
import { ImportError, importFactChecks } from "@/lib/matching/import/run";
import { indexFinishedDebates } from "@/lib/matching/store";
import { ingestSource } from "@/lib/corpus/ingest";
import { reembedCorpus } from "@/lib/corpus/reembed";
import { seedDebates } from "../helpers/seed-debates";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

/**
 * Size smoke (issue 32): bulk paths at a size that crosses their batch boundaries, on whichever
 * backend the pass runs (PGlite by default, PostgreSQL with TEST_DATABASE_URL). Before the bound,
 * a 600-record import aborted embedded PGlite at its first 500-row batch.
 */

const embedder = fakeEmbedder({ id: "test:hash-32", dim: 32, batchSize: 64 });
const N = 1_200;
let h: DbHandle;
let dir: string;

/** CheckThat!-style records of realistic length, deterministic. */
function feed(n: number, from = 0): string {
  const words = "senator vaccine ballot mayor bridge flood teacher budget hospital border photo video wage".split(" ");
  const w = (i: number, k: number) =>
    Array.from({ length: k }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
  const lines: string[] = [];
  for (let i = from; i < from + n; i++)
    lines.push(
      JSON.stringify({
        id: `vclaim-${i}`,
        title: `Did the ${w(i, 8)}?`,
        claim: `Claim ${i}: ${w(i, 24)}.`,
        subtitle: `Rumor: ${w(i + 1, 25)}`,
        author: "Jane Doe",
        date: "12 March 2020",
        url: `https://checks.example/fact-check/item-${i}/`,
      }),
    );
  return `${lines.join("\n")}\n`;
}

async function counts() {
  const r = await h.db.execute<{ stored: number | string; indexed: number | string; vectors: number | string }>(sql`
    select (select count(*) from imported_fact_checks) as stored,
           (select count(*) from claim_index where source = 'imported') as indexed,
           (select count(*) from claim_index_embeddings where model = ${embedder.id}) as vectors`);
  const row = r.rows[0]!;
  return { stored: Number(row.stored), indexed: Number(row.indexed), vectors: Number(row.vectors) };
}

beforeAll(async () => {
  h = await freshDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-size-"));
});

afterAll(async () => {
  await h?.close();
});

describe("statement bound (db/bulk.ts)", () => {
  const rows = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({
      source: "imported" as const,
      sourceRef: `${tag}-${i}`,
      claim: `claim ${tag} ${i} about a bridge and a flood`,
      matchText: `claim ${tag} ${i} about a bridge and a flood`,
      rating: null,
      scale: null,
      publisher: "Desk",
      url: null,
      claimDate: null,
      reviewDate: null,
    }));

  it("upserts the bound, then one past it, and again (the refresh path) without loss or duplicates", async () => {
    for (const n of [MAX_ROWS_PER_STATEMENT, MAX_ROWS_PER_STATEMENT + 1]) {
      const first = await upsertClaimIndex(h.db, rows(n, `b${n}`));
      expect(new Set(first).size).toBe(n);
      // A second upsert of the same keys looks every one up (the statement that aborted PGlite) and
      // returns the same ids.
      const again = await upsertClaimIndex(h.db, rows(n, `b${n}`));
      expect(again).toEqual(first);
    }
    expect(await claimIndexSize(h.db)).toBe(2 * MAX_ROWS_PER_STATEMENT + 1);
    await h.db.delete(s.claimIndex);
  });
});

describe(`fact-check import of ${N} records`, () => {
  it("stores, indexes and embeds every record; a second run adds nothing", async () => {
    const file = path.join(dir, "checks.jsonl");
    fs.writeFileSync(file, feed(N));
    const r = await importFactChecks({ db: h.db, embedder }, file);
    expect(r).toMatchObject({ read: N, imported: N, duplicates: 0, embedded: N, unembedded: 0 });
    expect(await counts()).toEqual({ stored: N, indexed: N, vectors: N });

    const again = await importFactChecks({ db: h.db, embedder }, file);
    expect(again).toMatchObject({ imported: 0, duplicates: N, embedded: 0 });
    expect(await counts()).toEqual({ stored: N, indexed: N, vectors: N });
  });

  it("a rerun completes what a stopped import left: records stored but not indexed, rows without vectors", async () => {
    const file = path.join(dir, "more.jsonl");
    fs.writeFileSync(file, feed(500, N));
    // A run that stopped between storing and indexing (the old abort): 250 records stored, none indexed.
    await insertImportedFactChecks(
      h.db,
      Array.from({ length: 250 }, (_, i) => ({
        claim: `Claim ${N + i}: stored by a run that stopped`,
        url: `https://checks.example/fact-check/item-${N + i}/`,
        sourceFeed: "more.jsonl",
        sourceId: `vclaim-${N + i}`,
        raw: {},
      })),
    );
    // The embedding model then fails part way: the error says what is stored and how to finish.
    const failing = fakeEmbedder({ id: embedder.id, dim: 32, batchSize: 64, failAfter: 2 });
    const err = await importFactChecks({ db: h.db, embedder: failing }, file).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/stopped while embedding/);
    expect(err.message).toMatch(
      /Stored now: 1700 imported fact-checks, 0 of them not yet searchable, 372 index rows without a vector/,
    );
    expect(err.message).toContain("npx counterpoint factchecks reindex");

    const done = await importFactChecks({ db: h.db, embedder }, file);
    expect(done).toMatchObject({ imported: 0, duplicates: 500, embedded: 372, unembedded: 0 });
    expect(await counts()).toEqual({ stored: N + 500, indexed: N + 500, vectors: N + 500 });
  });
});

describe(`${N} debates: backfill into the claim index, export and import back`, () => {
  it("indexes, exports and re-imports every debate once", async () => {
    // Small seeding batches: the helper's own inserts stay under the statement bound.
    const ids = await seedDebates(h.db, { count: N, batch: 40 });
    expect(await indexFinishedDebates(h.db)).toBe(N);
    expect(await indexFinishedDebates(h.db)).toBe(0);

    // A lookup by more ids than the bound is one array parameter (it was one parameter per id).
    const evidence = await evidenceOf(h.db, ids);
    expect(new Set(evidence.map((e) => e.debateId)).size).toBe(N);

    const lines: string[] = [];
    for await (const d of exportDebates(h.db)) lines.push(JSON.stringify(d));
    expect(new Set(lines.map((l) => JSON.parse(l).id)).size).toBe(N);

    // 300 debates lost (deleted); the export brings them back and adds nothing twice.
    const gone = ids.slice(0, 300);
    await h.db.execute(sql`delete from debates where id = any(${sql.param(gone)}::uuid[])`);
    async function* read() {
      yield* lines;
    }
    const r = await importJsonl(h.db, read());
    expect(r).toMatchObject({ debates: N, debatesAdded: 300 });
    const n = await h.db.execute<{ n: number | string }>(sql`select count(*) as n from debates`);
    expect(Number(n.rows[0]!.n)).toBe(N);
  });
});

describe(`corpus of ${N} passages`, () => {
  async function stored(model: string) {
    const r = await h.db.execute<{ passages: number | string; vectors: number | string }>(sql`
      select (select count(*) from passages p join corpora c on c.id = p.corpus_id where c.name = 'size') as passages,
             (select count(*) from passage_embeddings e where e.model = ${model}) as vectors`);
    return { passages: Number(r.rows[0]!.passages), vectors: Number(r.rows[0]!.vectors) };
  }

  it("ingests past the ingest batch (256 documents) and the statement bound, re-ingests nothing twice, re-embeds every passage", async () => {
    const file = path.join(dir, "corpus.jsonl");
    const body = (i: number) =>
      `Passage ${i}. The council voted on the bridge budget on day ${i}; the mayor said the flood wall would cost ${i} million. `.repeat(
        3,
      );
    fs.writeFileSync(
      file,
      `${Array.from({ length: N }, (_, i) => JSON.stringify({ id: `doc-${i}`, title: `Report ${i}`, text: body(i) })).join("\n")}\n`,
    );
    const first = await ingestSource(h.db, file, { corpus: "size", embedder });
    expect(first).toMatchObject({ status: "completed", docsAdded: N, passagesAdded: N, errors: 0 });
    expect(await stored(embedder.id)).toEqual({ passages: N, vectors: N });

    const again = await ingestSource(h.db, file, { corpus: "size", embedder });
    expect(again).toMatchObject({ status: "completed", passagesAdded: 0 });
    expect(await stored(embedder.id)).toEqual({ passages: N, vectors: N });

    const other = fakeEmbedder({ id: "test:hash-24", dim: 24, batchSize: 300 });
    const re = await reembedCorpus(h.db, "size", { embedder: other, batchSize: 300 });
    expect(re.status).toBe("completed");
    expect(await stored(other.id)).toEqual({ passages: N, vectors: N });
  });
});
