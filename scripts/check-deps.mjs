// `npm run check:deps`: the import rules that keep the layers pointing down, checked on every
// source file with the TypeScript compiler's own import scanner (no type check, a few seconds):
//   1. db/ imports nothing from lib/, type-only imports included: the shapes db/ stores are
//      defined in db/ (db/types.ts) and lib/ re-exports them, and the database settings are passed
//      down (db/client.ts configureDatabase), so types and settings flow down like code does;
//   2. lib/ imports nothing from app/, components/ or lib/cli/ (lib/cli itself may), with one
//      exception: a method package's `views/` folder (lib/debate/<method>/views/, its client
//      components) may import components/ (the shared UI and debate parts), and nothing else in the
//      package imports its `views/`, so a protocol or definition never pulls React or a page in;
//   3. one method's folder (lib/debate/<method>/, a folder holding a definition.ts) imports nothing
//      from another method's folder, types included: what two methods share lives in lib/debate/;
//   4. no import circles (type-only imports do not count: they vanish at run time);
//   5. nothing but the method registries imports a method's folder (lib/debate/<method>/, its
//      views/ and prompts/ included), types included: shared code asks the registries, so a new
//      method is its folder and one line in the list. No exceptions: what evaluation or a
//      benchmark needs of a method, the method's protocol offers (lib/debate/capabilities.ts).
// Exits 1 naming each broken rule with the files involved, so the fix is a search away.
// `node scripts/check-deps.mjs [root]` checks another tree (the unit test's fixtures).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(import.meta.dirname, "..");
const SOURCE_DIRS = ["app", "components", "db", "lib", "scripts", "bin", "instrumentation.ts", "proxy.ts"];
const EXTS = [".ts", ".tsx", ".mts", ".mjs", ".js"];

function walk(rel, out) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return out;
  const stat = fs.statSync(abs);
  if (stat.isFile()) {
    if (EXTS.some((e) => rel.endsWith(e)) && !rel.endsWith(".d.ts")) out.push(rel);
    return out;
  }
  for (const name of fs.readdirSync(abs)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    walk(path.join(rel, name), out);
  }
  return out;
}

const files = SOURCE_DIRS.flatMap((d) => walk(d, [])).map((f) => f.split(path.sep).join("/"));
const known = new Set(files);

function resolve(from, spec) {
  let base;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith("./") || spec.startsWith("../"))
    base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null; // a package
  const candidates = [base, ...EXTS.map((e) => base + e), ...EXTS.map((e) => `${base}/index${e}`)];
  if (/\.(m?js)$/.test(base)) candidates.push(base.replace(/\.m?js$/, ".ts"));
  return candidates.find((c) => known.has(c)) ?? null;
}

/** Every import of a file with whether it survives compilation (type-only imports do not). */
function importsOf(file) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const kind = file.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : file.endsWith(".ts") || file.endsWith(".mts")
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const out = [];
  const add = (spec, typeOnly) => {
    const target = resolve(file, spec);
    if (target) out.push({ spec, target, typeOnly });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const allTypes =
        !!c &&
        (c.isTypeOnly ||
          (!c.name &&
            !!c.namedBindings &&
            ts.isNamedImports(c.namedBindings) &&
            c.namedBindings.elements.length > 0 &&
            c.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The method whose folder holds `file` (lib/debate/<method>/ with a definition.ts), or null. */
const methodFolders = new Set(
  files.map((f) => /^lib\/debate\/([^/]+)\/definition\.tsx?$/.exec(f)?.[1]).filter((m) => m !== undefined),
);
function methodOf(file) {
  const m = /^(?:lib|components)\/debate\/([^/]+)\//.exec(file)?.[1];
  return m && methodFolders.has(m) ? m : null;
}

/** The registries: the only files outside a method's folder that may import one. */
const REGISTRIES = new Set([
  "lib/debate/registry/client.generated.ts",
  "lib/debate/registry/server.generated.ts",
  "components/debate/registry.generated.tsx",
  "lib/debate/methods.ts",
  "lib/debate/protocols.ts",
  "lib/eval/presets.ts",
  "components/debate/method-views.tsx",
]);

const graph = new Map(files.map((f) => [f, importsOf(f)]));
const problems = [];

for (const [file, imports] of graph) {
  for (const { target, typeOnly, spec } of imports) {
    if (file.startsWith("db/") && target.startsWith("lib/")) {
      problems.push(
        `db/ must not import lib/ (types included; define the shape in db/ and re-export it from lib/)${typeOnly ? " [type-only]" : ""}: ${file} imports ${spec}`,
      );
    }
    const from = methodOf(file);
    const to = methodOf(target);
    if (from && to && from !== to) {
      problems.push(
        `a method's folder must not import another method's folder (move what both use to lib/debate/): ${file} imports ${spec}`,
      );
    }
    if (to && !from && !REGISTRIES.has(file)) {
      problems.push(
        `only the method registries may import a method's folder (ask lib/debate/methods.ts, lib/debate/protocols.ts, lib/eval/presets.ts or components/debate/method-views.tsx; what a method offers beyond its run is a capability of its protocol, lib/debate/capabilities.ts)${typeOnly ? " [type-only]" : ""}: ${file} imports ${spec}`,
      );
    }
    const inViews = from !== null && file.startsWith(`lib/debate/${from}/views/`);
    if (
      file.startsWith("lib/") &&
      !file.startsWith("lib/cli/") &&
      (/^(app|lib\/cli)\//.test(target) || (target.startsWith("components/") && !inViews))
    ) {
      problems.push(
        `lib/ must not import app/, components/ or lib/cli/ (only a method's views/ folder may import components/): ${file} imports ${spec}`,
      );
    }
    if (from && to === from && !inViews && target.startsWith(`lib/debate/${from}/views/`)) {
      problems.push(
        `only a method's views/ may import its views/ (keep client components out of its definition and protocol): ${file} imports ${spec}`,
      );
    }
  }
}

// Circles: strongly connected components of the run-time import graph (Tarjan, iterative enough for this tree).
const runtime = new Map(
  [...graph].map(([f, imps]) => [f, [...new Set(imps.filter((i) => !i.typeOnly).map((i) => i.target))]]),
);
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function strong(v) {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  onStack.add(v);
  for (const w of runtime.get(v) ?? []) {
    if (!idx.has(w)) {
      strong(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1 || (runtime.get(v) ?? []).includes(v)) components.push(comp.sort());
  }
}
for (const f of files) if (!idx.has(f)) strong(f);
// Circles allowed for now, each while it is being removed; the check fails once a listed circle is
// gone, so the list cannot go stale. None are left.
const KNOWN_CIRCLES = [];
const key = (comp) => comp.join(" ");
for (const known of KNOWN_CIRCLES) {
  if (!components.some((c) => key(c) === key([...known].sort())))
    problems.push(
      `the known circle ${known.join(" <-> ")} is gone: remove it from KNOWN_CIRCLES in scripts/check-deps.mjs`,
    );
}
for (const comp of components.filter((c) => !KNOWN_CIRCLES.some((k) => key([...k].sort()) === key(c)))) {
  // One concrete cycle inside the component, so the message shows which imports to cut.
  const inComp = new Set(comp);
  const startNode = comp[0];
  const prev = new Map([[startNode, null]]);
  const queue = [startNode];
  let cycle = null;
  while (queue.length && !cycle) {
    const v = queue.shift();
    for (const w of runtime.get(v) ?? []) {
      if (!inComp.has(w)) continue;
      if (w === startNode) {
        const p = [];
        for (let x = v; x; x = prev.get(x)) p.unshift(x);
        cycle = [...p, startNode];
        break;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  problems.push(`import circle of ${comp.length} files (${comp.join(", ")}); e.g. ${cycle.join(" -> ")}`);
}

if (problems.length) {
  console.error(problems.join("\n"));
  console.error(`\n${problems.length} dependency rule(s) broken in ${files.length} files.`);
  process.exit(1);
}
console.log(
  `dependency rules hold in ${files.length} files: db/ below lib/ (types included), lib/ below app/ and the CLI, no method folder importing another, only the registries importing method folders, no import circles.`,
);
