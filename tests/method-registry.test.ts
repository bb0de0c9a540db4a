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
  return genWith({}, root, ...flags);
}

function genWith(env: Record<string, string>, root: string, ...flags: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...flags, root], {
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const FIXTURE_LIST = "tests/fixtures/methods/methods.json";
const FIXTURE_BARRELS = ["client.generated.ts", "server.generated.ts", "views.generated.tsx"].map(
  (f) => `tests/fixtures/methods/registry/${f}`,
);
const PRODUCT: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, "lib/debate/methods.json"), "utf8"));

function copy(dir: string, rel: string, to = rel) {
  const from = path.join(ROOT, rel);
  if (fs.statSync(from).isDirectory()) {
    for (const name of fs.readdirSync(from)) copy(dir, `${rel}/${name}`, `${to}/${name}`);
    return;
  }
  fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
  fs.copyFileSync(from, path.join(dir, to));
}

/**
 * What the generator reads and writes, copied: the lists, the barrels, and each listed method's
 * entry files (client.ts, server.ts, views/views.tsx where it has one).
 */
function copyOfRegistry(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "method-registry-"));
  for (const rel of ["lib/debate/methods.json", ...BARRELS, FIXTURE_LIST, ...FIXTURE_BARRELS]) copy(dir, rel);
  const fixtures: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, FIXTURE_LIST), "utf8"));
  for (const folder of [...PRODUCT.map((m) => `lib/debate/${m}`), ...fixtures])
    for (const f of ["client.ts", "server.ts", "views/views.tsx"])
      if (fs.existsSync(path.join(ROOT, `${folder}/${f}`))) copy(dir, `${folder}/${f}`);
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

/** Lines of `after` not in `before` and the other way round. */
function lineDiff(before: string, after: string) {
  const b = before.split("\n");
  const a = after.split("\n");
  return { added: a.filter((l) => !b.includes(l)), removed: b.filter((l) => !a.includes(l)) };
}

/** The list's new lines, the comma JSON puts after the line before the new last entry aside. */
function newEntries(d: { added: string[]; removed: string[] }) {
  expect(d.removed.every((l) => d.added.includes(`${l},`))).toBe(true);
  return d.added.filter((l) => !d.removed.includes(l.replace(/,$/, "")));
}

/**
 * Adds a method as a newcomer would: copies the test method's folder to `folder` and writes its
 * one line at the end of `list`; then runs the generator. Returns every file whose text changed,
 * beyond what the generator writes, and the list's line diff.
 */
function addMethod(dir: string, folder: string, list: string, entry: string, env: Record<string, string>) {
  const before = snapshot(dir);
  copy(dir, "tests/fixtures/methods/verity", folder);
  const text = before.get(list)!;
  const entries = JSON.parse(text) as string[];
  fs.writeFileSync(path.join(dir, list), `${JSON.stringify([...entries, entry], null, 2)}\n`);
  expect(genWith(env, dir, "--check")).toMatchObject({
    status: 1,
    out: expect.stringContaining("npm run gen:methods"),
  });
  const g = genWith(env, dir);
  expect(g.out).toContain("wrote");
  expect(g.status).toBe(0);
  const after = snapshot(dir);
  const changed = [...after.keys()].filter((f) => after.get(f) !== before.get(f)).sort();
  return { changed, list: lineDiff(text, after.get(list)!), before, after };
}

describe("the one list of methods", () => {
  it("the committed barrels are what the lists give (the product's, and the fixture list's)", () => {
    const r = gen(ROOT, "--check");
    expect(r.out).toBe("");
    expect(r.status).toBe(0);
    const f = genWith({ METHODS_LIST: FIXTURE_LIST }, ROOT, "--check");
    expect(f.out).toBe("");
    expect(f.status).toBe(0);
  });

  it("a new built-in method touches its folder and one line of lib/debate/methods.json; the regenerated barrels reach only its folder", () => {
    const dir = copyOfRegistry();
    const { changed, list, before, after } = addMethod(dir, "lib/debate/echo", "lib/debate/methods.json", "echo", {});
    const byHand = changed.filter((f) => !BARRELS.includes(f));
    const folder = byHand.filter((f) => f.startsWith("lib/debate/echo/"));
    expect(folder.length).toBeGreaterThan(0);
    expect(byHand.filter((f) => !folder.includes(f))).toEqual(["lib/debate/methods.json"]);
    expect(newEntries(list)).toEqual(['  "echo"']);
    for (const barrel of BARRELS) {
      const imports = lineDiff(before.get(barrel)!, after.get(barrel)!).added.filter((l) => l.startsWith("import"));
      // The test method has no views of its own, so the views barrel gains nothing (the shared page serves it).
      expect(imports.length).toBe(barrel.includes("registry.generated.tsx") ? 0 : 1);
      for (const l of imports) expect(l).toMatch(/"@\/lib\/debate\/echo\/(client|server|views\/views)"/);
    }
  });

  it("a fifth test method is its folder and one line of the fixture list (METHODS_LIST), and the product's barrels stay as they are", () => {
    const dir = copyOfRegistry();
    const { changed, list } = addMethod(
      dir,
      "tests/fixtures/methods/echo",
      FIXTURE_LIST,
      "tests/fixtures/methods/echo",
      { METHODS_LIST: FIXTURE_LIST },
    );
    const byHand = changed.filter((f) => !FIXTURE_BARRELS.includes(f));
    const folder = byHand.filter((f) => f.startsWith("tests/fixtures/methods/echo/"));
    expect(folder.length).toBeGreaterThan(0);
    expect(byHand.filter((f) => !folder.includes(f))).toEqual([FIXTURE_LIST]);
    expect(newEntries(list)).toEqual(['  "tests/fixtures/methods/echo"']);
    expect(changed.filter((f) => BARRELS.includes(f))).toEqual([]);
  });

  it("refuses a list that is not method folder names, saying what it expects", () => {
    const dir = copyOfRegistry();
    fs.writeFileSync(path.join(dir, "lib/debate/methods.json"), '{"radar": true}\n');
    const r = gen(dir);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/methods\.json: expected a non-empty JSON array of method folder names/);
  });
});
