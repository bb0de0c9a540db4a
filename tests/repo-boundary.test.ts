import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The repository stands alone: someone who clones it gets only it. No test, product file or the
 * README may name a folder outside it (the datasets, papers or notes the project was developed
 * beside) or speak of the developers' own computer as if the reader shared it. Tests use
 * fixtures under tests/fixtures; the product installs datasets with `dataset download`.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const DIRS = ["app", "components", "lib", "db", "scripts", "prompts", "bin", "e2e", "tests", "docs"];
const FILES = [
  "README.md",
  "ARCHITECTURE.md",
  ".env.example",
  "playwright.config.ts",
  "vitest.config.ts",
  "package.json",
];
const TEXT = /\.(ts|tsx|mjs|cjs|js|json|md|txt|sh|sql|css|yml|yaml)$/;
// Built from parts so this file does not match itself.
const up = "..";
const FORBIDDEN = [
  new RegExp(`${up.replace(/\./g, "\\.")}[/\\\\]+${"shared"}\\b`),
  new RegExp(`\\b${"shared"}/(datasets|seeds|specs|docs)\\b`),
  new RegExp(`${"SHARED"}_DATASETS`),
  new RegExp(`this ${"machine"}`, "i"),
];

function* walk(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      yield* walk(p);
    } else if (TEXT.test(e.name)) yield p;
  }
}

describe("the repository speaks only of itself", () => {
  it("no test, product file or README line names a path outside the repository", () => {
    const files = [
      ...DIRS.flatMap((d) => (fs.existsSync(path.join(ROOT, d)) ? [...walk(path.join(ROOT, d))] : [])),
      ...FILES.map((f) => path.join(ROOT, f)).filter((f) => fs.existsSync(f)),
    ];
    expect(files.length).toBeGreaterThan(100);
    const hits: string[] = [];
    for (const f of files) {
      const lines = fs.readFileSync(f, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (FORBIDDEN.some((re) => re.test(line)))
          hits.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(hits).toEqual([]);
  });

  it("the patterns catch what they are for", () => {
    const caught = (s: string) => FORBIDDEN.some((re) => re.test(s));
    expect(caught(`--data ${up}/shared/${"datasets"}/fever`)).toBe(true);
    expect(caught(`see shared/${"seeds"}/000`)).toBe(true);
    expect(caught(`could not be obtained on this ${"machine"}`)).toBe(true);
    expect(caught("two shared cores; shared by worker processes")).toBe(false);
  });
});
