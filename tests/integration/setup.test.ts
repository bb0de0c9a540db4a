import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
      await expect(createFirstAdmin(empty.db, dataDir, { code: "guess", email: "a@x.org", password: "long enough pw" })).rejects.toThrow(/setup code/);
      const admin = await createFirstAdmin(empty.db, dataDir, { code, email: "a@x.org", password: "long enough pw" });
      expect(admin.email).toBe("a@x.org");
      expect(fs.existsSync(setupCodeFile(dataDir))).toBe(false);
      await expect(createFirstAdmin(empty.db, dataDir, { code, email: "b@x.org", password: "long enough pw" })).rejects.toThrow();
    }
  });

});
