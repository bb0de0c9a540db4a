import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * scripts/test-summary.mjs, the closing line CI reads, run on report folders written here: it adds
 * up the suites, never lets a broken suite look green, and says under each failure why it failed
 * (CI shows only the end of the output).
 */
const SCRIPT = path.resolve(import.meta.dirname, "../scripts/test-summary.mjs");

function reports(files: Record<string, string | object>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "test-summary-"));
  for (const [name, body] of Object.entries(files))
    fs.writeFileSync(path.join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
  return dir;
}

function summarise(dir: string) {
  const r = spawnSync(process.execPath, [SCRIPT, dir], { encoding: "utf8" });
  const lines = r.stdout.trim().split("\n");
  return { status: r.status, out: r.stdout, last: lines[lines.length - 1] };
}

const vitestReport = (testResults: object[], passed: number, failed: number) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults,
});

describe("scripts/test-summary.mjs", () => {
  it("adds up passing suites, a check without tests counting as one pass", () => {
    const r = summarise(
      reports({
        "typecheck.exit": "0",
        "unit.exit": "0",
        "unit.vitest.json": vitestReport([], 12, 0),
        "e2e.exit": "0",
        "e2e.playwright.json": { stats: { expected: 3, unexpected: 0, flaky: 0, skipped: 2 }, suites: [] },
      }),
    );
    expect(r.last).toBe("16 passed, 0 failed, 2 skipped");
    expect(r.status).toBe(0);
  });

  it("names a failed vitest case with the first lines of its message, colour codes removed", () => {
    const message = `\x1b[31mAssertionError: expected 7 to be 8\x1b[39m\n\n- Expected\n+ Received\n${Array.from(
      { length: 40 },
      (_, i) => `line ${i}`,
    ).join("\n")}`;
    const r = summarise(
      reports({
        "integration-postgres.exit": "1",
        "integration-postgres.vitest.json": vitestReport(
          [
            {
              name: path.join(process.cwd(), "tests/integration/x.test.ts"),
              status: "failed",
              assertionResults: [{ status: "failed", fullName: "x counts items", failureMessages: [message] }],
            },
          ],
          5,
          1,
        ),
      }),
    );
    expect(r.out).toContain("integration-postgres: tests/integration/x.test.ts › x counts items");
    expect(r.out).toContain("      AssertionError: expected 7 to be 8");
    expect(r.out).not.toContain("\x1b[");
    // 30 lines of the message at most: the three above, then the first 27 numbered lines.
    expect(r.out).toContain("line 26");
    expect(r.out).not.toContain("line 27");
    expect(r.last).toBe("5 passed, 1 failed");
    expect(r.status).toBe(1);
  });

  it("names a test file that failed outside any test with its message", () => {
    const r = summarise(
      reports({
        "unit.exit": "1",
        "unit.vitest.json": vitestReport(
          [
            {
              name: path.join(process.cwd(), "tests/broken.test.ts"),
              status: "failed",
              message: "Error: Cannot find module '@/lib/gone'\n    at import (tests/broken.test.ts:1:1)",
              assertionResults: [],
            },
          ],
          0,
          0,
        ),
      }),
    );
    expect(r.out).toContain("unit: tests/broken.test.ts (failed outside a test)");
    expect(r.out).toContain("Cannot find module '@/lib/gone'");
    expect(r.out).toContain("at import (tests/broken.test.ts:1:1)");
    expect(r.last).toBe("0 passed, 1 failed");
  });

  it("counts a suite that crashed before its report as a failure and shows the end of its log", () => {
    const log = `${Array.from({ length: 50 }, (_, i) => `progress ${i}`).join("\n")}\nerror TS2322: Type 'string' is not assignable to type 'number'.\n`;
    const r = summarise(reports({ "typecheck.exit": "2", "typecheck.log": log, "lint.exit": "1" }));
    expect(r.out).toContain("typecheck: exited 2 without a report");
    expect(r.out).toContain("error TS2322");
    expect(r.out).not.toContain("progress 30\n"); // only the log's last 20 lines
    expect(r.out).toContain("lint: exited 1 without a report");
    expect(r.last).toBe("0 passed, 2 failed");
    expect(r.status).toBe(1);
  });

  it("counts a suite whose report shows no failure but which exited non-zero", () => {
    const r = summarise(
      reports({
        "unit.exit": "1",
        "unit.vitest.json": vitestReport([], 9, 0),
        "unit.log": "Unhandled Rejection: boom\n",
      }),
    );
    expect(r.out).toContain("unit: exited 1 though no test failed");
    expect(r.out).toContain("Unhandled Rejection: boom");
    expect(r.last).toBe("9 passed, 1 failed");
  });

  it("names a failed Playwright spec by its titles, with its error", () => {
    const r = summarise(
      reports({
        "e2e.exit": "1",
        "e2e.playwright.json": {
          stats: { expected: 2, unexpected: 1, flaky: 0, skipped: 0 },
          suites: [
            {
              title: "desk.spec.ts",
              specs: [
                {
                  title: "a verdict streams",
                  ok: false,
                  tests: [{ results: [{ error: { message: "Timed out waiting for getByText('Verdict')" } }] }],
                },
                { title: "fine", ok: true, tests: [] },
              ],
            },
          ],
        },
      }),
    );
    expect(r.out).toContain("e2e: desk.spec.ts › a verdict streams");
    expect(r.out).toContain("Timed out waiting for getByText('Verdict')");
    expect(r.out).not.toContain("› fine");
    expect(r.last).toBe("2 passed, 1 failed");
  });
});
