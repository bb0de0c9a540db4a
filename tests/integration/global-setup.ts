import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PGlite data directory migrated once for the whole pass; test-db.ts copies it per file. */
    pgliteTemplate: string;
  }
}

/**
 * Runs once per integration pass, before any file. Creating a PGlite database and applying every
 * migration costs seconds of WebAssembly per file; copying a directory migrated once costs a
 * fraction of that and yields the same database (test-db.ts still runs the migrator on the copy,
 * which finds nothing to apply). PostgreSQL's pass needs no template: its reset is already cheap.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-it-template-"));
  const handle = await openDatabase(
    { backend: "pglite", dataDir: dir },
    { migrationsDir: path.resolve(import.meta.dirname, "../../db/migrations") },
  );
  await handle.close();
  project.provide("pgliteTemplate", dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
