import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The engine keeps a run through its run store (lib/debate/run-store.ts) and nothing else: the
 * runner and the step writers import no database queries, so what a run persists is the store's
 * list and can be provided by another implementation.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENGINE = [
  "lib/debate/runner.ts",
  ...fs.readdirSync(path.join(ROOT, "lib/debate/steps")).map((f) => `lib/debate/steps/${f}`),
];

describe("the engine's run store", () => {
  it.each(ENGINE)("%s reaches the database only through the run store", (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    expect(text).not.toMatch(/from "@\/db\/queries\//);
  });

  it("the database's store provides every operation the engine's type names", async () => {
    const { debateRunStore } = await import("@/db/queries/debate-run-store");
    const { runStore } = await import("@/lib/debate/run-store");
    expect(runStore()).toBe(debateRunStore);
    for (const [name, op] of Object.entries(debateRunStore))
      expect(typeof op === "function" || Array.isArray(op), name).toBe(true);
  });
});
