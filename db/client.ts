import fs from "node:fs";
import path from "node:path";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { sql } from "drizzle-orm";
import * as schema from "./schema";
import { applyMigrations } from "./migrate";
import { peekDbGlobal, setDbGlobal } from "./process-globals";

/**
 * One code path, two backends. Both drizzle drivers share the same query builder, so the rest of
 * the app sees one `Database` type; only opening, migrating and closing differ.
 */
export type Database = NodePgDatabase<typeof schema>;
export type Backend = "pglite" | "postgres";

/** Where the database is: a PGlite data directory or a PostgreSQL URL (lib/config.ts reads it from the environment). */
export type DatabaseLocation = { backend: "pglite"; dataDir: string } | { backend: "postgres"; url: string };

/** What getDb() opens and migrates: passed in by the process's composition root, since db/ reads no configuration. */
export type DatabaseSettings = { database: DatabaseLocation; migrationsDir: string };

export type DbHandle = {
  db: Database;
  backend: Backend;
  /** Where the data lives, for messages: a directory for PGlite, the URL without password for Postgres. */
  location: string;
  /** Runs `fn` while holding a database-wide lock, so two processes never migrate at once. */
  exclusive<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export class DatabaseInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is open in another process (pid ${pid}). ` +
        `PGlite allows one process at a time: stop that process (e.g. the running app) first, ` +
        `or point both at a PostgreSQL server with DATABASE_URL=postgres://...`,
    );
    this.name = "DatabaseInUseError";
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** PGlite corrupts a data directory opened by two processes, so we refuse instead. */
function takeLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, "counterpoint.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number(fs.readFileSync(lockPath, "utf8"));
      if (owner === process.pid) return () => {};
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new DatabaseInUseError(dataDir, owner);
      // The owner died without cleaning up (crash, kill -9): the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

async function openPglite(dataDir: string): Promise<DbHandle> {
  fs.mkdirSync(dataDir, { recursive: true });
  const release = takeLock(dataDir);
  try {
    const [{ PGlite }, { vector }, { drizzle }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite-pgvector"),
      import("drizzle-orm/pglite"),
    ]);
    const client = await PGlite.create({ dataDir, extensions: { vector } });
    const db = drizzle(client, { schema }) as unknown as Database;
    return {
      db,
      backend: "pglite",
      location: dataDir,
      // Only this process can open the directory (see takeLock), so there is nobody to exclude.
      exclusive: (_key, fn) => fn(),
      async close() {
        await client.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

function redact(url: string) {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}

async function openPostgres(url: string): Promise<DbHandle> {
  const [{ default: pg }, { drizzle }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the server; the next query reconnects.
  pool.on("error", (err) => console.error(`[db] idle PostgreSQL client error: ${err.message}`));
  try {
    await pool.query("select 1");
  } catch (e) {
    await pool.end();
    throw new Error(
      `Cannot connect to PostgreSQL at ${redact(url)}: ${(e as Error).message}. Check DATABASE_URL, or unset it to use the embedded database.`,
    );
  }
  return {
    db: drizzle(pool, { schema }),
    backend: "postgres",
    location: redact(url),
    async exclusive(key, fn) {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [key]);
        try {
          return await fn();
        } finally {
          await client.query("select pg_advisory_unlock($1)", [key]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export async function openDatabase(
  database: DatabaseLocation,
  opts: { migrationsDir?: string; migrate?: boolean } = {},
): Promise<DbHandle> {
  const handle = database.backend === "pglite" ? await openPglite(database.dataDir) : await openPostgres(database.url);
  if (opts.migrate !== false) {
    try {
      await applyMigrations(handle, opts.migrationsDir ?? databaseSettings().migrationsDir);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }
  return handle;
}

// Next.js may evaluate this module more than once (dev reloads, separate route bundles): the
// handle and the hooks are process-wide (db/process-globals.ts), so the database opens once.

/**
 * What the process runs beside the database (e.g. the cross-process event bus on PostgreSQL):
 * registered once by the composition root (lib/process/services.ts), so this layer opens and
 * closes the database without knowing what sits above it.
 */
export type DatabaseHooks = {
  /** After the database opened and migrated, before anyone gets the handle. */
  opened?(handle: DbHandle, database: DatabaseLocation): void | Promise<void>;
  /** Before the database closes (e.g. to send what is still queued). */
  closing?(): void | Promise<void>;
};

export function addDatabaseHooks(hooks: DatabaseHooks) {
  setDbGlobal("db.hooks", [...(peekDbGlobal("db.hooks") ?? []), hooks]);
}

/**
 * Tells getDb() where the database is. Called once at process start by the composition root
 * (lib/process/services.ts configureDatabaseFromConfig) with a function, not a value, so settings read
 * at open time (tests change DATABASE_URL between files) are the ones used.
 */
export function configureDatabase(settings: () => DatabaseSettings) {
  setDbGlobal("db.settings", settings);
}

function databaseSettings(): DatabaseSettings {
  const settings = peekDbGlobal("db.settings");
  if (!settings)
    throw new Error(
      "The database is not configured: it was opened before configureDatabase() (db/client.ts) said where it is. " +
        "Call installProcessServices() or configureDatabaseFromConfig() (lib/process/services.ts) at process start, " +
        "or pass migrationsDir to openDatabase().",
    );
  return settings();
}

/** The process-wide database, opened and migrated on first use, where configureDatabase said. */
export function getDb(): Promise<DbHandle> {
  const open = peekDbGlobal("db");
  if (open) return open;
  const { database, migrationsDir } = databaseSettings();
  const opening = openDatabase(database, { migrationsDir }).then(async (handle) => {
    for (const hooks of peekDbGlobal("db.hooks") ?? []) await hooks.opened?.(handle, database);
    return handle;
  });
  // A failed open must not be cached forever: the next request tries again.
  opening.catch(() => {
    if (peekDbGlobal("db") === opening) setDbGlobal("db", undefined);
  });
  setDbGlobal("db", opening);
  return opening;
}

export async function closeDb() {
  const opening = peekDbGlobal("db");
  setDbGlobal("db", undefined);
  for (const hooks of peekDbGlobal("db.hooks") ?? []) await hooks.closing?.();
  if (opening) await (await opening).close();
}

export async function pgvectorVersion(db: Database): Promise<string | null> {
  const res = await db.execute<{ extversion: string }>(
    sql`select extversion from pg_extension where extname = 'vector'`,
  );
  return res.rows[0]?.extversion ?? null;
}
