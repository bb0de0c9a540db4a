import { afterEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db/client";
import { peekDbGlobal, setDbGlobal } from "@/db/process-globals";

/**
 * db/ reads no configuration (scripts/check-deps.mjs refuses any import of lib/ from db/): where
 * the database is comes from above, through configureDatabase. The test setup configures it the
 * way the app and the CLI do (lib/process/services.ts); here it is taken away to show the error.
 */
describe("getDb before configureDatabase", () => {
  const configured = peekDbGlobal("db.settings");
  afterEach(() => setDbGlobal("db.settings", configured));

  it("is configured by the test setup, as by the composition root", () => {
    expect(configured).toBeTypeOf("function");
  });

  it("fails saying what to call, and opens nothing", async () => {
    await closeDb();
    setDbGlobal("db.settings", undefined);
    expect(() => getDb()).toThrow(/not configured.*configureDatabase\(\).*installProcessServices\(\)/);
    expect(peekDbGlobal("db")).toBeUndefined();
  });
});
