import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { configureDatabaseFromConfig } from "@/lib/process/services";

/**
 * Runs before every test file: the file's temporary folders (a PGlite test database is about 250 MB,
 * a pass makes dozens of them, and CLI processes the tests start write theirs too) go into one folder
 * of its own, removed when the file ends. Without it each run left gigabytes in the system's
 * temporary folder, and repeated runs filled the disk.
 */
const outer = process.env.TMPDIR;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "counterpoint-test-"));
process.env.TMPDIR = scratch;

// Registered before the file's own hooks, so it runs after them (vitest runs after-hooks last-in,
// first-out): databases are closed and child processes ended before their folders go.
afterAll(() => {
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
});

// db/ reads no configuration: tests that call getDb() get the database the environment names, as
// the app and the CLI do through lib/process/services.ts.
configureDatabaseFromConfig();
