import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { inject } from "vitest";
import { openDatabase, type DbHandle } from "@/db/client";
import type { AppConfig } from "@/lib/config";

/**
 * The integration suite runs twice: on embedded PGlite (default) and on real PostgreSQL when
 * TEST_DATABASE_URL is set (scripts/test-all.sh sets it). Each file gets an empty database.
 */
export const backend: "pglite" | "postgres" = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
export const MIGRATIONS = path.resolve(import.meta.dirname, "../../db/migrations");
/** The newest migration shipped, read from drizzle's journal so new migrations need no test edits. */
export const LATEST_MIGRATION: string = (
  JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  }
).entries.at(-1)!.tag;

export function testDatabaseConfig(): AppConfig["database"] {
  if (process.env.TEST_DATABASE_URL) return { backend: "postgres", url: process.env.TEST_DATABASE_URL };
  return { backend: "pglite", dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "cp-it-")) };
}

/** Drops everything the migrations made, keeping the vector extension (created by a superuser). */
async function wipePostgres(url: string) {
  const h = await openDatabase({ backend: "postgres", url }, { migrate: false });
  try {
    await h.db.execute(sql`drop schema if exists drizzle cascade`);
    const tables = await h.db.execute<{ tablename: string }>(
      sql`select tablename from pg_tables where schemaname = 'public'`,
    );
    for (const { tablename } of tables.rows) await h.db.execute(sql.raw(`drop table if exists "${tablename}" cascade`));
  } finally {
    await h.close();
  }
}

/**
 * The environment for a CLI process of its own: an empty database, so nothing a machine kept from
 * earlier runs (a shared /tmp, a PostgreSQL test database left migrated) can change the result.
 */
export async function freshCliEnv(): Promise<Record<string, string>> {
  const config = testDatabaseConfig();
  if (config.backend === "postgres") {
    await wipePostgres(config.url);
    return { DATABASE_URL: config.url };
  }
  // The CLI keeps PGlite at $DATA_DIR/pglite; the fresh directory is DATA_DIR itself.
  return { DATA_DIR: config.dataDir };
}

export async function freshDatabase(): Promise<DbHandle & { config: AppConfig["database"] }> {
  const config = testDatabaseConfig();
  if (config.backend === "postgres") await wipePostgres(config.url);
  // The pass's migrated template (global-setup.ts): the same database as migrating here, seconds sooner.
  const template = config.backend === "pglite" ? inject("pgliteTemplate") : undefined;
  if (config.backend === "pglite" && template) fs.cpSync(template, config.dataDir, { recursive: true });
  const handle = await openDatabase(config, { migrationsDir: MIGRATIONS });
  return Object.assign(handle, { config });
}
