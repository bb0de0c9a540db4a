import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * scripts/check-deps.mjs run on small trees written here (its optional argument is the root to
 * check): the layering rules refuse what they name, type-only imports included, and pass a tree
 * that keeps them.
 */
const SCRIPT = path.resolve(import.meta.dirname, "../scripts/check-deps.mjs");

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "check-deps-"));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

function check(root: string) {
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const LIB_TYPE = "export type Shape = { id: string };\n";

describe("scripts/check-deps.mjs", () => {
  it("passes a tree whose db/ defines its own types and lib/ re-exports them", () => {
    const r = check(
      tree({
        "db/types.ts": "export type Shape = { id: string };\n",
        "db/queries/rows.ts": 'import type { Shape } from "../types";\nexport const rows = (s: Shape) => s.id;\n',
        "lib/shapes.ts": 'export type { Shape } from "@/db/types";\n',
        "lib/debate/alpha/definition.ts": "export const alpha = 1;\n",
        "lib/debate/beta/definition.ts": 'import { common } from "../common";\nexport const beta = common;\n',
        "lib/debate/common.ts": "export const common = 2;\n",
      }),
    );
    expect(r.out).toContain("dependency rules hold");
    expect(r.status).toBe(0);
  });

  it("refuses a type-only import from db/ into lib/, naming the file and the import", () => {
    const r = check(
      tree({
        "lib/shapes.ts": LIB_TYPE,
        "db/queries/rows.ts": 'import type { Shape } from "@/lib/shapes";\nexport const rows = (s: Shape) => s.id;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/db\/ must not import lib\/ .*\[type-only\]: db\/queries\/rows\.ts imports @\/lib\/shapes/);
  });

  it("refuses inline type imports and import() types from db/ into lib/ too", () => {
    const r = check(
      tree({
        "lib/shapes.ts": LIB_TYPE,
        "db/a.ts": 'import { type Shape } from "../lib/shapes";\nexport const a = (s: Shape) => s;\n',
        "db/b.ts": 'export type B = import("../lib/shapes").Shape;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.out).toContain("db/a.ts imports ../lib/shapes");
    expect(r.out).toContain("db/b.ts imports ../lib/shapes");
  });

  it("refuses one method's folder importing another's, types included, but not a shared folder", () => {
    const r = check(
      tree({
        "lib/debate/alpha/definition.ts": "export const alpha = 1;\nexport type Alpha = number;\n",
        "lib/debate/alpha/protocol.ts": "export function clip(s: string) {\n  return s;\n}\n",
        "lib/debate/beta/definition.ts": "export const beta = 2;\n",
        "lib/debate/beta/answers.ts": 'import { clip } from "../alpha/protocol";\nexport const b = clip("x");\n',
        "lib/debate/beta/types.ts":
          'import type { Alpha } from "@/lib/debate/alpha/definition";\nexport type B = Alpha;\n',
        // steps/ has no definition.ts: a shared folder any method may use.
        "lib/debate/steps/kit.ts": "export const kit = 3;\n",
        "lib/debate/alpha/uses-steps.ts": 'import { kit } from "../steps/kit";\nexport const k = kit;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.out).toContain(
      "a method's folder must not import another method's folder (move what both use to lib/debate/): lib/debate/beta/answers.ts imports ../alpha/protocol",
    );
    expect(r.out).toContain("lib/debate/beta/types.ts imports @/lib/debate/alpha/definition");
    expect(r.out).not.toContain("uses-steps");
    expect(r.out).toContain("2 dependency rule(s) broken");
  });

  it("refuses shared code importing a method's folder or its views, types included; the registries may", () => {
    const r = check(
      tree({
        "lib/debate/alpha/definition.ts": "export const alpha = 1;\nexport type Alpha = number;\n",
        "components/debate/alpha/views.tsx": "export const alphaViews = {};\n",
        "components/debate/alpha/fields.tsx": 'import { alphaViews } from "./views";\nexport const f = alphaViews;\n',
        "lib/debate/methods.ts": 'import { alpha } from "./alpha/definition";\nexport const all = [alpha];\n',
        "components/debate/method-views.tsx":
          'import { alphaViews } from "./alpha/views";\nexport const v = alphaViews;\n',
        "lib/export/uses-alpha.ts":
          'import type { Alpha } from "@/lib/debate/alpha/definition";\nexport const x = (a: Alpha) => a;\n',
        "components/debate/page.tsx": 'import { alphaViews } from "./alpha/views";\nexport const p = alphaViews;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/only the method registries .*\[type-only\]: lib\/export\/uses-alpha\.ts imports/);
    expect(r.out).toContain("components/debate/page.tsx imports ./alpha/views");
    expect(r.out).not.toMatch(/methods\.ts imports|method-views\.tsx imports|fields\.tsx imports/);
    expect(r.out).toContain("2 dependency rule(s) broken");
  });

  it("has no allow-list: evaluation and benchmark files importing a method's folder are refused like any shared file", () => {
    // These paths were once allowed while they moved behind the registry; none is any longer.
    const r = check(
      tree({
        "lib/debate/alpha/definition.ts": "export const alpha = 1;\nexport type AlphaConfig = { n: number };\n",
        "lib/eval/run-scores.ts": 'import { alpha } from "@/lib/debate/alpha/definition";\nexport const a = alpha;\n',
        "lib/eval/run.ts":
          'import type { AlphaConfig } from "@/lib/debate/alpha/definition";\nexport const c = (x: AlphaConfig) => x;\n',
        "lib/bench/ner.ts": 'import { alpha } from "../debate/alpha/definition";\nexport const n = alpha;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/only the method registries .*: lib\/eval\/run-scores\.ts imports/);
    expect(r.out).toMatch(/only the method registries .*\[type-only\]: lib\/eval\/run\.ts imports/);
    expect(r.out).toMatch(/only the method registries .*: lib\/bench\/ner\.ts imports/);
    expect(r.out).toContain("3 dependency rule(s) broken");
  });

  it("lets a method's views/ import components/, and refuses it to the rest of lib/ and the package's protocol importing its views", () => {
    const r = check(
      tree({
        "components/ui/button.tsx": "export const Button = 1;\n",
        "lib/debate/alpha/definition.ts": "export const alpha = 1;\n",
        "lib/debate/alpha/views/views.tsx":
          'import { Button } from "@/components/ui/button";\nimport { alpha } from "../definition";\nexport const v = [Button, alpha];\n',
        "lib/debate/alpha/protocol.ts": 'import { v } from "./views/views";\nexport const p = v;\n',
        "lib/debate/alpha/server.ts": 'import { Button } from "@/components/ui/button";\nexport const s = Button;\n',
        "lib/export/page-bits.ts": 'import { Button } from "@/components/ui/button";\nexport const e = Button;\n',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.out).toContain(
      "only a method's views/ may import its views/ (keep client components out of its definition and protocol): lib/debate/alpha/protocol.ts imports ./views/views",
    );
    expect(r.out).toMatch(/lib\/ must not import app\/, components\/ .*: lib\/debate\/alpha\/server\.ts imports/);
    expect(r.out).toMatch(/lib\/ must not import app\/, components\/ .*: lib\/export\/page-bits\.ts imports/);
    expect(r.out).not.toContain("views.tsx imports");
    expect(r.out).toContain("3 dependency rule(s) broken");
  });
});
