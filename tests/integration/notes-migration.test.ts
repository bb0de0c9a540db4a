import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/db/client";
import { applyMigrations } from "@/db/migrate";
import { loadDebate } from "@/db/queries/debates";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { CHECKPOINT_NOTE, checkpointSchema } from "@/lib/debate/radar/checkpoint";
import { radarConfigSchema, radarProtocol } from "@/lib/debate/radar/protocol";
import { runDebate } from "@/lib/debate/runner";
import { debateView } from "@/lib/debate/view";
import { readNotes } from "@/lib/debate/view-notes";
import { promptsHash } from "@/lib/prompts";
import { freshCliEnv, MIGRATIONS, testDatabaseConfig } from "./test-db";

/**
 * A debate stored before method notes (RADAR's checkpoint in its own `checkpoints` table, the run
 * interrupted) still displays and resumes once the migrations that move that table into
 * `debate_notes` have run. The database is made as that version made it (the migrations before
 * them only), the old rows are written as that version wrote them, then every migration runs. (Taking
 * a migrated database back instead stops working once later migrations exist: the migrator only
 * applies what is newer than the newest one it has recorded.)
 */
const NOTES_MIGRATIONS = ["0013_method_notes", "0014_drop_checkpoints"];

/** A copy of the migrations folder whose journal ends before the notes migrations. */
function migrationsBeforeNotes(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-before-notes-"));
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  const file = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(file, "utf8")) as { entries: Array<{ tag: string }> };
  const first = journal.entries.findIndex((e) => e.tag === NOTES_MIGRATIONS[0]);
  expect(first).toBeGreaterThan(0);
  expect(journal.entries[first + 1]?.tag).toBe(NOTES_MIGRATIONS[1]);
  journal.entries = journal.entries.slice(0, first);
  fs.writeFileSync(file, JSON.stringify(journal));
  return dir;
}

let h: DbHandle;
beforeAll(async () => {
  // An empty database (PostgreSQL's test database wiped; PGlite a new directory), then the old version's migrations.
  await freshCliEnv();
  h = await openDatabase(testDatabaseConfig(), { migrationsDir: migrationsBeforeNotes() });
  const old = await h.db.execute<{ present: boolean }>(
    sql`select to_regclass('public.checkpoints') is not null as present`,
  );
  expect(old.rows[0]!.present).toBe(true);
});
afterAll(async () => {
  await h?.close();
});

describe("RADAR's checkpoints stored before method notes", () => {
  it("are moved into the notes table, shown on the page, and the debate resumes from them", async () => {
    const config = radarConfigSchema.parse({ rebuttals: 1, earlyStopping: "score-only" });
    const models = Object.fromEntries(radarProtocol.roles(config).map((r) => [r, "openai:gpt-4o-mini"]));
    // Written as the old version wrote them: a debate interrupted after its opening and first checkpoint.
    const [claim] = (
      await h.db.execute<{ id: string }>(
        sql`insert into claims (text) values ('The boxer sold his medal to help children in the 2022 war.') returning id`,
      )
    ).rows;
    const [debate] = (
      await h.db.execute<{
        id: string;
      }>(sql`insert into debates (claim_id, protocol, variant, config, models, prompts_hash, evidence_mode, status)
        values (${claim!.id}, 'radar', ${config.variant}, ${JSON.stringify(config)}::jsonb, ${JSON.stringify(models)}::jsonb,
          ${promptsHash(radarProtocol.templates(config))}, 'gold', 'interrupted') returning id`)
    ).rows;
    const id = debate!.id;
    await h.db.execute(
      sql`insert into debate_evidence (debate_id, rank, source, text) values (${id}, 1, 'gold', 'The boxer auctioned his Olympic medal in 2022.')`,
    );
    await h.db.execute(sql`insert into checkpoints (debate_id, after, round, p_stop, p_continue, stop_margin, label_probs,
        confidence, confidence_emitted, verdict, tau_s, tau_v, decision, scoring_method, tokens_so_far)
      values (${id}, 'opening', 1, 0.25, 0.75, -0.5, '{"TRUE":0.1,"HALF-TRUE":0.2,"FALSE":0.7}'::jsonb,
        0.7, null, 'FALSE', -0.15, 0.7, 'continue', 'top-logprobs+top-logprobs', 1234)`);

    await applyMigrations(h, MIGRATIONS);
    const moved = await h.db.execute<{ present: boolean }>(
      sql`select to_regclass('public.checkpoints') is not null as present`,
    );
    expect(moved.rows[0]!.present).toBe(false);

    const view = (await debateView(h.db, id))!;
    const [cp] = readNotes(view.notes, CHECKPOINT_NOTE, checkpointSchema);
    expect(cp).toMatchObject({
      after: "opening",
      round: 1,
      decision: "continue",
      verdict: "FALSE",
      confidenceEmitted: null,
      scoringMethod: "top-logprobs+top-logprobs",
      tokensSoFar: 1234,
    });
    expect(cp!.stopMargin).toBeCloseTo(-0.5, 5);
    expect(cp!.labelProbs!.FALSE).toBeCloseTo(0.7, 5);

    // Resumed: the run writes every checkpoint it reaches (the opening's again, replacing it) and finishes.
    const m = scriptedModel("openai:gpt-4o-mini", { pStop: 0.2, verdictProb: 0.9 });
    expect(await runDebate(h.db, id, { resolve: () => m.resolved })).toEqual({ status: "completed" });
    const after = (await loadDebate(h.db, id))!;
    expect(after.debate.status).toBe("completed");
    expect(after.notes.map((n) => [n.kind, n.key])).toEqual([
      ["checkpoint", "opening"],
      ["checkpoint", "rebuttal-1"],
    ]);
    expect(after.verdict).not.toBeNull();
  });
});
