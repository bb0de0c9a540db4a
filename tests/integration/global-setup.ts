import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PGlite data directory migrated once for the whole pass; test-db.ts copies it per file. */
    pgliteTemplate: string | undefined;
    /** The CLI (lib/cli/main.ts) bundled once for the whole pass; tests/helpers/cli.ts runs it. */
    cliBundle: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Runs once per integration pass, before any file.
 *
 * Creating a PGlite database and applying every migration costs seconds of WebAssembly per file;
 * copying a directory migrated once costs a fraction of that and yields the same database
 * (test-db.ts still runs the migrator on the copy, which finds nothing to apply). PostgreSQL's
 * pass needs no template: its reset is already cheap.
 *
 * The CLI tests start dozens of CLI processes; through the bin entry each spends seconds having tsx
 * resolve and compile hundreds of modules. Bundling the same sources once with the same compiler
 * leaves each process only the start-up of the CLI itself.
 */
export default async function setup(project: TestProject) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cp-it-pass-"));
  // Inside the repository, so the bundle's imports of packages resolve to node_modules as the CLI's do.
  const bundleDir = fs.mkdtempSync(path.join(ROOT, "node_modules/.cache-cli-bundle-"));
  const cleanup = () => {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  };
  try {
    const cliBundle = path.join(bundleDir, "counterpoint.mjs");
    await build({
      entryPoints: [path.join(ROOT, "lib/cli/main.ts")],
      outfile: cliBundle,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      tsconfig: path.join(ROOT, "tsconfig.json"),
      logLevel: "warning",
    });
    project.provide("cliBundle", cliBundle);

    let pgliteTemplate: string | undefined;
    if (!process.env.TEST_DATABASE_URL) {
      pgliteTemplate = path.join(work, "pglite");
      const handle = await openDatabase(
        { backend: "pglite", dataDir: pgliteTemplate },
        { migrationsDir: path.join(ROOT, "db/migrations") },
      );
      await handle.close();
    }
    project.provide("pgliteTemplate", pgliteTemplate);
  } catch (e) {
    cleanup();
    throw e;
  }
  return cleanup;
}
