// Adds up the suites' JSON reports into one closing line, "N passed, N failed", that CI reads.
// A suite that exited non-zero without a report (it crashed, or a type check failed) counts as one
// failure, so a broken suite can never look green.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];

for (const exitFile of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".exit"))
  .sort()) {
  const name = exitFile.replace(/\.exit$/, "");
  const exit = Number(fs.readFileSync(path.join(dir, exitFile), "utf8").trim());
  let p = 0,
    f = 0,
    s = 0,
    reported = false;
  const vitest = path.join(dir, `${name}.vitest.json`);
  const playwright = path.join(dir, `${name}.playwright.json`);
  if (fs.existsSync(vitest)) {
    const r = JSON.parse(fs.readFileSync(vitest, "utf8"));
    p = r.numPassedTests;
    f = r.numFailedTests;
    s = r.numPendingTests + r.numTodoTests;
    reported = true;
  } else if (fs.existsSync(playwright)) {
    const r = JSON.parse(fs.readFileSync(playwright, "utf8")).stats;
    p = r.expected;
    f = r.unexpected + r.flaky;
    s = r.skipped;
    reported = true;
  } else if (exit === 0) {
    p = 1; // a check without test cases (typecheck) that succeeded
  }
  if (exit !== 0 && f === 0) f = 1;
  if (!reported && exit !== 0) f = 1;
  rows.push(
    `${name.padEnd(22)} ${String(p).padStart(4)} passed ${String(f).padStart(4)} failed${s ? ` ${s} skipped` : ""}`,
  );
  passed += p;
  failed += f;
  skipped += s;
}

console.log(rows.join("\n"));
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
