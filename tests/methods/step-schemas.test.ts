import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { methodDefinitions } from "@/lib/debate/methods";

/*
 * Every step a protocol writes has a schema in its method's definition: a step written but not
 * declared would read as "could not read this step" on every page, so the drift fails here instead.
 * The step names are taken from the method folder's source, as written (`step: "x"`, `zofiaStep("x"`,
 * `proclaimStep("x"`, Tool-MAD's scorer `meta("x"`).
 */

const WRITES = [/\bstep:\s*"([a-z-]+)"/g, /\b(?:zofiaStep|proclaimStep)\(\s*"([a-z-]+)"/g, /\bmeta\(\s*"([a-z-]+)"/g];

function writtenSteps(folder: string): string[] {
  const names = new Set<string>();
  for (const f of readdirSync(folder)) {
    if (!f.endsWith(".ts") || f === "definition.ts" || f === "steps.ts") continue;
    const src = readFileSync(path.join(folder, f), "utf8");
    for (const re of WRITES) for (const m of src.matchAll(re)) names.add(m[1]!);
  }
  return [...names].sort();
}

describe("step metadata schemas", () => {
  for (const def of methodDefinitions()) {
    if (!def.metadataKey) continue;
    it(`${def.title}: every step its protocol writes has a schema`, () => {
      const written = writtenSteps(path.join("lib/debate", def.name));
      expect(written.length).toBeGreaterThan(0);
      expect(written.filter((s) => !def.steps[s])).toEqual([]);
    });
  }
});
