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
// Named failures are printed last: CI shows the end of the output, and a count alone does not say
// which test to open. Each comes with the start of its message: a failure seen only in CI, where
// the suite's own output has scrolled away, must still say why.
const failures = [];

/** The first lines of a failure message, colour codes removed, indented under the test's name. */
function reason(message) {
  if (!message) return "";
  const lines = String(message)
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, 30)
    .map((l) => `      ${l.slice(0, 300)}`);
  return `\n${lines.join("\n")}`;
}

/** The last lines of a suite's log: all a crash that wrote no report leaves to say why. */
function logTail(file) {
  if (!fs.existsSync(file)) return "";
  const lines = fs
    .readFileSync(file, "utf8")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(-20)
    .map((l) => `      ${l.slice(0, 300)}`);
  return lines.length ? `\n${lines.join("\n")}` : "";
}

function vitestFailures(name, report) {
  for (const file of report.testResults ?? []) {
    const rel = path.relative(process.cwd(), file.name ?? "");
    const failedCases = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failedCases)
      failures.push(`${name}: ${rel} › ${a.fullName ?? a.title}${reason(a.failureMessages?.[0])}`);
    // A file that failed outside any test (an import error, a hook) has no failed case to name.
    if (file.status === "failed" && failedCases.length === 0) {
      failures.push(`${name}: ${rel} (failed outside a test)${reason(file.message)}`);
    }
  }
}

function playwrightFailures(name, suite, trail = []) {
  const here = suite.title ? [...trail, suite.title] : trail;
  for (const spec of suite.specs ?? []) {
    if (spec.ok !== false) continue;
    const error = (spec.tests ?? []).flatMap((t) => t.results ?? []).find((r) => r.error)?.error;
    failures.push(`${name}: ${[...here, spec.title].join(" › ")}${reason(error?.message)}`);
  }
  for (const child of suite.suites ?? []) playwrightFailures(name, child, here);
}

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
    vitestFailures(name, r);
    reported = true;
  } else if (fs.existsSync(playwright)) {
    const report = JSON.parse(fs.readFileSync(playwright, "utf8"));
    const r = report.stats;
    p = r.expected;
    f = r.unexpected + r.flaky;
    s = r.skipped;
    for (const suite of report.suites ?? []) playwrightFailures(name, suite);
    reported = true;
  } else if (exit === 0) {
    p = 1; // a check without test cases (typecheck) that succeeded
  }
  // A suite that failed with no failed test to name (a crash before its report, an error between
  // tests, a lint or type error) is named by its exit code and the end of its log, when it has one.
  if (exit !== 0 && f === 0) {
    f = 1;
    const what = reported ? "though no test failed" : "without a report";
    failures.push(`${name}: exited ${exit} ${what}${logTail(path.join(dir, `${name}.log`))}`);
  }
  rows.push(
    `${name.padEnd(22)} ${String(p).padStart(4)} passed ${String(f).padStart(4)} failed${s ? ` ${s} skipped` : ""}`,
  );
  passed += p;
  failed += f;
  skipped += s;
}

console.log(rows.join("\n"));
if (failures.length > 0) console.log(`failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
