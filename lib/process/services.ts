import { addDatabaseHooks, configureDatabase } from "@/db/client";
import { debateRunStore } from "@/db/queries/debate-run-store";
import { getConfig } from "@/lib/config";
import { useRunStore } from "@/lib/debate/run-store";
import { peekProcessGlobal, setProcessGlobal } from "./globals";

/**
 * The composition root: what runs in every Counterpoint process beside its requests or commands,
 * wired here once and called by both entry points (instrumentation.ts for the app, lib/cli/main.ts
 * for the CLI). Lower layers expose services; only this file decides that they run together.
 *
 * - The cross-process event bus (PostgreSQL only): several processes share the database, and each
 *   one's debate events reach the others' event streams through it, over a listening connection
 *   opened when the database opens. PGlite has a single process, so nothing to connect.
 *   It closes before the database does, so its last queued events (a debate's final status) are
 *   sent before the process goes.
 * - Where the database is (configureDatabaseFromConfig): db/ reads no configuration, so the
 *   settings from the environment (lib/config.ts) are handed down to getDb() here.
 * - The model settings saved on /admin (lib/ai/model-settings.ts): read when the database opens,
 *   and again whenever another process signals a change on the bus.
 * - The engine's run store (lib/debate/run-store.ts): what a debate's run keeps goes to the
 *   database through db/queries/debate-run-store.ts.
 * - Provider limits across processes (PostgreSQL only, lib/ai/concurrency.ts): every process's
 *   model calls (app server, `counterpoint worker`, a foreground `counterpoint debate`) take their
 *   slots in the shared database, so MODEL_CONCURRENCY holds for all of them together.
 */
export function installProcessServices() {
  configureDatabaseFromConfig();
  useRunStore(debateRunStore);
  if (peekProcessGlobal("process-services")) return;
  setProcessGlobal("process-services", true);
  addDatabaseHooks({
    async opened(handle, database) {
      if (database.backend === "postgres") {
        (await import("@/lib/debate/pg-bus")).enableCrossProcessEvents(database.url);
        (await import("@/lib/ai/concurrency")).useGlobalProviderSlots(handle.db);
      }
      // Before anyone gets the handle, so no debate starts on the environment's models alone.
      await (await import("@/lib/ai/model-settings")).followModelSettings(handle.db);
    },
    async closing() {
      await (await import("@/lib/debate/pg-bus")).disableCrossProcessEvents();
    },
  });
}

/**
 * getDb() opens the database the configuration names, read when it opens (not now), so a process
 * that changes DATABASE_URL before its first query (the tests) gets the one it set. Also called
 * alone by processes that want the database without the services above (the test setup).
 */
export function configureDatabaseFromConfig() {
  configureDatabase(() => {
    const config = getConfig();
    return { database: config.database, migrationsDir: config.migrationsDir };
  });
}
