import fs from "node:fs";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { DbHandle } from "./client";

/** Arbitrary but fixed: the advisory-lock key all Counterpoint processes use while migrating. */
const MIGRATION_LOCK_KEY = 7_361_204;

export type MigrationStatus = {
  /** Migrations shipped with this version of the code. */
  available: number;
  /** Migrations recorded as applied in the database. */
  applied: number;
  pending: number;
  latest: string | null;
};

function checkDir(migrationsDir: string) {
  if (!fs.existsSync(`${migrationsDir}/meta/_journal.json`)) {
    throw new Error(
      `No migrations found in ${migrationsDir}. Run Counterpoint from the project directory, or set MIGRATIONS_DIR.`,
    );
  }
}

/**
 * drizzle-kit's own `migrate` fails silently on PGlite, so both backends go through drizzle-orm's
 * migrator from code. It records applied migrations in drizzle.__drizzle_migrations.
 */
export async function applyMigrations(handle: DbHandle, migrationsDir: string): Promise<void> {
  checkDir(migrationsDir);
  await handle.exclusive(MIGRATION_LOCK_KEY, async () => {
    if (handle.backend === "pglite") {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(handle.db as never, { migrationsFolder: migrationsDir });
    } else {
      const { migrate } = await import("drizzle-orm/node-postgres/migrator");
      await migrate(handle.db, { migrationsFolder: migrationsDir });
    }
  });
}

export async function migrationStatus(handle: DbHandle, migrationsDir: string): Promise<MigrationStatus> {
  checkDir(migrationsDir);
  const files = readMigrationFiles({ migrationsFolder: migrationsDir });
  const journal = JSON.parse(fs.readFileSync(`${migrationsDir}/meta/_journal.json`, "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  const exists = await handle.db.execute<{ present: boolean }>(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  let applied = 0;
  if (exists.rows[0]?.present) {
    const hashes = await handle.db.execute<{ hash: string }>(sql`select hash from drizzle.__drizzle_migrations`);
    const appliedHashes = new Set(hashes.rows.map((r) => r.hash));
    applied = files.filter((f) => appliedHashes.has(f.hash)).length;
  }
  return {
    available: files.length,
    applied,
    pending: files.length - applied,
    latest: journal.entries.at(-1)?.tag ?? null,
  };
}
