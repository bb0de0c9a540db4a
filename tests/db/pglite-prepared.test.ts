import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryPrepared } from "@/db/pglite-prepared";

// The runner's per-step statements on PGlite (db/queries/debates.ts `hot`): what a caller relies on.
describe("prepared statements on PGlite", () => {
  let db: PGlite;
  const insert = "insert into steps (seq, meta) values ($1::int, $2::jsonb) returning id, seq";
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec("create table steps (id uuid primary key default gen_random_uuid(), seq int unique, meta jsonb)");
    // Compiling PGlite's WebAssembly takes a while on a loaded machine.
  }, 60_000);
  afterAll(() => db.close());

  it("returns the rows by column name, as text, and runs the same statement again with other values", async () => {
    const [a] = await queryPrepared<{ id: string; seq: string }>(db, "t_insert", insert, [1, '{"k":1}']);
    const [b] = await queryPrepared<{ id: string; seq: string }>(db, "t_insert", insert, [2, null]);
    expect(a!.seq).toBe("1");
    expect(b!.seq).toBe("2");
    expect(a!.id).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await db.query<{ seq: number; meta: unknown }>("select seq, meta from steps order by seq");
    expect(rows).toEqual([
      { seq: 1, meta: { k: 1 } },
      { seq: 2, meta: null },
    ]);
  });

  it("throws the database's error and keeps working after it, on a statement parsed in the failing call too", async () => {
    await expect(queryPrepared(db, "t_insert", insert, [1, null])).rejects.toThrow(/unique/);
    // Parsed, then failed in the same message: the next call must not trip over the name left behind.
    const bad = "insert into steps (seq) values ($1::int) returning seq";
    await expect(queryPrepared(db, "t_fresh", bad, ["not a number"])).rejects.toThrow(/integer/);
    expect(await queryPrepared(db, "t_fresh", bad, [7])).toEqual([{ seq: "7" }]);
    expect(await queryPrepared(db, "t_insert", insert, [3, null])).toHaveLength(1);
  });
});
