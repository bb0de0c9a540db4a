import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The one list of methods (lib/debate/methods.json) and the registries' barrels generated from it
 * (scripts/gen-method-registry.mjs): the committed barrels are what the list gives, and adding a
 * method changes the list by one line and nothing else by hand; the barrels the generator rewrites
 * reach only the new folder's client.ts, server.ts and views.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const SCRIPT = path.join(ROOT, "scripts/gen-method-registry.mjs");
const BARRELS = [
  "lib/debate/registry/client.generated.ts",
  "lib/debate/registry/server.generated.ts",
  "components/debate/registry.generated.tsx",
];

function gen(root: string, ...flags: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...flags, root], { encoding: "utf8" });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The list and the barrels, copied: the part of the tree the generator reads and writes. */
function copyOfRegistry(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "method-registry-"));
  for (const rel of ["lib/debate/methods.json", ...BARRELS]) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, rel), path.join(dir, rel));
  }
  return dir;
}

function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (fs.statSync(path.join(dir, r)).isDirectory()) walk(r);
      else out.set(r, fs.readFileSync(path.join(dir, r), "utf8"));
    }
  };
  walk("");
  return out;
}

describe("the one list of methods", () => {
  it("the committed barrels are what lib/debate/methods.json gives", () => {
    const r = gen(ROOT, "--check");
    expect(r.out).toBe("");
    expect(r.status).toBe(0);
  });

  it("a new method is one line in the list; the regenerated barrels reach only its own folder", () => {
    const dir = copyOfRegistry();
    const before = snapshot(dir);
    const list = JSON.parse(before.get("lib/debate/methods.json")!) as string[];
    fs.writeFileSync(path.join(dir, "lib/debate/methods.json"), `${JSON.stringify([...list, "verity"])}\n`);
    // Stale until regenerated: the check names the barrels and the command.
    expect(gen(dir, "--check")).toMatchObject({ status: 1, out: expect.stringContaining("npm run gen:methods") });
    expect(gen(dir).status).toBe(0);
    const after = snapshot(dir);
    const changed = [...after.keys()].filter((f) => after.get(f) !== before.get(f)).sort();
    expect(changed).toEqual(["lib/debate/methods.json", ...BARRELS].sort());
    // By hand: one line of the list.
    const lines = (f: string) => before.get(f)!.split("\n");
    expect(after.get("lib/debate/methods.json")!.split("\n").length).toBe(lines("lib/debate/methods.json").length);
    // What the generator added names the new folder only.
    for (const barrel of BARRELS) {
      const added = after
        .get(barrel)!
        .split("\n")
        .filter((l) => !lines(barrel).includes(l));
      const imports = added.filter((l) => l.startsWith("import"));
      expect(imports.length).toBeGreaterThan(0);
      for (const l of imports)
        expect(l).toMatch(/"(\.\.\/verity\/(client|server)|@\/lib\/debate\/verity\/(client|views\/views))"/);
    }
  });

  it("refuses a list that is not method folder names, saying what it expects", () => {
    const dir = copyOfRegistry();
    fs.writeFileSync(path.join(dir, "lib/debate/methods.json"), '{"radar": true}\n');
    const r = gen(dir);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/methods\.json: expected a non-empty JSON array of method folder names/);
  });
});
