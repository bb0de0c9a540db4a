import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createFirstAdmin, ensureSetupCode, setupCodeFile } from "@/lib/auth/setup";
import { freshDatabase } from "./test-db";

let empty: DbHandle;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-setup-"));
beforeAll(async () => {
  empty = await freshDatabase();
});
afterAll(async () => {
  await empty?.close();
});

describe("first run", () => {
  it("the first admin needs the setup code the server printed, and set-up works once", async () => {
    {
      const code = (await ensureSetupCode(empty.db, dataDir))!;
      expect(fs.readFileSync(setupCodeFile(dataDir), "utf8").trim()).toBe(code);
      await expect(
        createFirstAdmin(empty.db, dataDir, { code: "guess", email: "a@x.org", password: "long enough pw" }),
      ).rejects.toThrow(/setup code/);
      const admin = await createFirstAdmin(empty.db, dataDir, { code, email: "a@x.org", password: "long enough pw" });
      expect(admin.email).toBe("a@x.org");
      expect(fs.existsSync(setupCodeFile(dataDir))).toBe(false);
      await expect(
        createFirstAdmin(empty.db, dataDir, { code, email: "b@x.org", password: "long enough pw" }),
      ).rejects.toThrow();
    }
  });
});

describe("the setup code at start-up", () => {
  it("is printed when the server starts with no account yet, again after a restart, and not once an admin exists", async () => {
    const { register } = await import("@/instrumentation");
    const { closeDb, getDb } = await import("@/db/client");
    const { resetConfigForTests } = await import("@/lib/config");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-start-"));
    const saved = {
      DATA_DIR: process.env.DATA_DIR,
      DATABASE_URL: process.env.DATABASE_URL,
      NEXT_RUNTIME: process.env.NEXT_RUNTIME,
    };
    Object.assign(process.env, { DATA_DIR: dir, DATABASE_URL: "", NEXT_RUNTIME: "nodejs" });
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    const start = async () => {
      lines.length = 0;
      resetConfigForTests();
      await register();
      return lines.join("\n");
    };
    try {
      const first = await start();
      const code = fs.readFileSync(setupCodeFile(dir), "utf8").trim();
      expect(first).toContain(`First-run setup code: ${code}`);
      // A restart before anyone set up prints the same, still valid code.
      await closeDb();
      expect(await start()).toContain(`First-run setup code: ${code}`);
      await createFirstAdmin((await getDb()).db, dir, { code, email: "a@x.org", password: "long enough pw" });
      await closeDb();
      expect(await start()).not.toContain("setup code");
    } finally {
      log.mockRestore();
      await closeDb();
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      resetConfigForTests();
    }
  });
});
