/**
 * Seeds N finished debates (4 turns, 2 passages, a checkpoint, a verdict each) into an empty
 * database for measuring exports: `DATABASE_URL=... npx tsx scripts/bench-export.ts 50000`, then
 * time `npx counterpoint export --format jsonl --out /tmp/x.jsonl` under `/usr/bin/time -v`.
 */
import { getConfig } from "@/lib/config";
import { openDatabase } from "@/db/client";
import { seedDebates } from "@/tests/helpers/seed-debates";

const n = Number(process.argv[2] ?? 50_000);
const h = await openDatabase(getConfig().database, { migrationsDir: getConfig().migrationsDir });
const t0 = Date.now();
await seedDebates(h.db, { count: n, dataset: "politifact" });
console.log(`seeded ${n} debates in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
await h.close();
