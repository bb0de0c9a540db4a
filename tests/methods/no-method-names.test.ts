import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { methodNames } from "@/lib/debate/methods";

/**
 * What a method is lives in its folder and reaches other code through a registry: a file anywhere
 * else that spells a method's name as a string (`=== "radar"`, `protocol: "zofia"`, a table keyed
 * by names) knows something about that method the registry does not, and is where the next method
 * gets forgotten. This test reads the source and names every such place.
 */

const ROOT = path.resolve(__dirname, "../..");
const SCANNED = ["app", "components", "lib", "db"];

/**
 * Method folders (the method's definition, run and views) and the registries: of definitions, of
 * server-side runs, of view components, and of evaluation presets (each a paper's replication,
 * naming the method it replicates).
 */
const REGISTRIES = [
  "lib/debate/methods.ts",
  "lib/debate/protocols.ts",
  "components/debate/method-views.tsx",
  "lib/eval/presets.ts",
];
function allowedFile(rel: string, names: readonly string[]): boolean {
  // A method package (lib/debate/<m>/, its views/ and prompts/ included) may name itself.
  if (names.some((n) => rel.startsWith(`lib/debate/${n}/`))) return true;
  return REGISTRIES.includes(rel);
}

/**
 * The one name that is also something else: "radar" as the name of a label scheme (TRUE /
 * HALF-TRUE / FALSE) in the dataset converters' `--labels` option, which predates the product
 * scale's own name and is part of the CLI.
 */
const LABEL_SCHEME_FILES = new Set([
  "lib/datasets/label-schemes.ts",
  "lib/datasets/check-covid-claims.ts",
  "lib/datasets/proclaim-subsets.ts",
  "lib/datasets/averitec-claims.ts",
  "lib/datasets/convert.ts",
  "lib/cli/commands/dataset.ts",
]);

/** A comment names methods to explain; only code can compare. */
const COMMENT = /^\s*(\/\/|\/?\*)/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

export function methodNameUses(
  names: readonly string[],
  files: ReadonlyArray<{ rel: string; text: string }>,
): string[] {
  const literal = new RegExp(`(["'\`])(${names.map((n) => n.replace(/[-]/g, "\\-")).join("|")})\\1`, "g");
  const found: string[] = [];
  for (const { rel, text } of files) {
    if (allowedFile(rel, names)) continue;
    text.split("\n").forEach((line, i) => {
      if (COMMENT.test(line)) return;
      for (const m of line.matchAll(literal)) {
        if (LABEL_SCHEME_FILES.has(rel) && m[2] === "radar" && !/protocol/i.test(line)) continue;
        found.push(`${rel}:${i + 1}: ${line.trim().slice(0, 140)}`);
      }
    });
  }
  return found;
}

describe("no file outside a method folder or a registry names a method", () => {
  const names = methodNames();
  const files = SCANNED.flatMap((d) => sources(path.join(ROOT, d))).map((f) => ({
    rel: path.relative(ROOT, f).split(path.sep).join("/"),
    text: fs.readFileSync(f, "utf8"),
  }));

  it("finds none in the source tree", () => {
    expect(methodNameUses(names, files)).toEqual([]);
  });

  it("would find one: the check is not blind", () => {
    const planted = [
      { rel: "app/debates/page.tsx", text: `if (protocol === "zofia") return null;` },
      { rel: "lib/eval/report.ts", text: `const x = { protocol: 'proclaim' };` },
      { rel: "lib/debate/zofia/protocol.ts", text: `name: "zofia"` },
    ];
    expect(methodNameUses(names, planted)).toEqual([
      `app/debates/page.tsx:1: if (protocol === "zofia") return null;`,
      `lib/eval/report.ts:1: const x = { protocol: 'proclaim' };`,
    ]);
  });
});
