import type { DatabaseHooks, DatabaseSettings, DbHandle } from "./client";

/**
 * The database layer's process-wide singletons. Every other one is listed in
 * lib/process/globals.ts; these live here because db/ may not import lib/ (the layers point
 * down). Same scheme: one value per process under `Symbol.for("counterpoint.<key>")`, because
 * Next.js may evaluate db/client.ts once per bundle and again on dev reloads, and the process must
 * still open the database exactly once.
 */
export interface DbProcessGlobals {
  /** The process's database, opening or open (db/client.ts getDb). */
  db: Promise<DbHandle>;
  /** What runs beside the database, registered by the composition root (lib/process/services.ts). */
  "db.hooks": DatabaseHooks[];
  /** Where the database is, set by the composition root (db/client.ts configureDatabase). */
  "db.settings": () => DatabaseSettings;
}

type Key = keyof DbProcessGlobals;
const slot = (key: Key) => Symbol.for(`counterpoint.${key}`);
const store = () => globalThis as unknown as Record<symbol, unknown>;

export function peekDbGlobal<K extends Key>(key: K): DbProcessGlobals[K] | undefined {
  return store()[slot(key)] as DbProcessGlobals[K] | undefined;
}

export function setDbGlobal<K extends Key>(key: K, value: DbProcessGlobals[K] | undefined): void {
  if (value === undefined) delete store()[slot(key)];
  else store()[slot(key)] = value;
}
