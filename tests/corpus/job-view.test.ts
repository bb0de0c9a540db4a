import { describe, expect, it } from "vitest";
import {
  canResume,
  describeErrors,
  etaSeconds,
  formatDuration,
  jobLabel,
  jobVersion,
  passagesPerSecond,
  type JobView,
} from "@/lib/corpus/job-view";
import { corpusNameProblem } from "@/lib/corpus/names";

const view = (over: Partial<JobView> = {}): JobView => ({
  id: "00000000-0000-0000-0000-000000000001",
  status: "running",
  kind: "file",
  label: "news.jsonl",
  bytesTotal: 1000,
  bytesDone: 250,
  recordsDone: 10,
  docsAdded: 10,
  docsUpdated: 0,
  docsUnchanged: 0,
  docsSkippedEmpty: 0,
  passagesAdded: 40,
  errors: 0,
  recentErrors: [],
  error: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  startedAt: "2025-01-01T00:00:00.000Z",
  finishedAt: null,
  resumable: false,
  ...over,
});
const at = (s: number) => Date.parse("2025-01-01T00:00:00.000Z") + s * 1000;

describe("job view", () => {
  it("estimates the time left from the share of bytes read", () => {
    expect(etaSeconds(view(), at(10))).toBe(30);
    expect(etaSeconds(view({ bytesTotal: null }), at(10))).toBeNull();
    expect(etaSeconds(view({ status: "completed" }), at(10))).toBeNull();
    expect(etaSeconds(view({ bytesDone: 0 }), at(10))).toBeNull();
  });

  it("measures passages per second up to the end of the job, not up to now", () => {
    expect(passagesPerSecond(view(), at(20))).toBe(2);
    expect(passagesPerSecond(view({ status: "completed", finishedAt: "2025-01-01T00:00:04.000Z" }), at(1000))).toBe(10);
  });

  it("names the lines of bad records", () => {
    expect(describeErrors(view())).toBeNull();
    expect(describeErrors(view({ errors: 1, recentErrors: [{ line: 3, message: "line 3: not valid JSON" }] }))).toBe(
      "1 error, line 3",
    );
    expect(
      describeErrors(
        view({
          errors: 2,
          recentErrors: [
            { line: 3, message: "a" },
            { line: 9, message: "b" },
          ],
        }),
      ),
    ).toBe("2 errors, lines 3, 9");
    // Older errors are only counted, so the list says it is not complete.
    expect(describeErrors(view({ errors: 60, recentErrors: [{ line: 70, message: "a" }] }))).toBe(
      "60 errors, line 70, …",
    );
    expect(describeErrors(view({ errors: 1, recentErrors: [{ message: "passage id repeats" }] }))).toBe("1 error");
  });

  it("changes version only when progress does", () => {
    expect(jobVersion(view())).toBe(jobVersion(view()));
    expect(jobVersion(view({ bytesDone: 251 }))).not.toBe(jobVersion(view()));
    expect(jobVersion(view({ status: "cancelled" }))).not.toBe(jobVersion(view()));
  });

  it("labels uploads by file name, not server path", () => {
    expect(jobLabel("file", "/srv/data/uploads/1f2e/news.jsonl")).toBe("news.jsonl");
    expect(jobLabel("sample", "sample")).toBe("demo corpus");
    expect(jobLabel("url", "https://example.org/a")).toBe("https://example.org/a");
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(125)).toBe("2 min 5 s");
  });
});

describe("corpus names", () => {
  it("accepts 1-64 letters, digits, - and _", () => {
    expect(corpusNameProblem("newsroom_2025-archive")).toBeUndefined();
    expect(corpusNameProblem("a".repeat(64))).toBeUndefined();
    expect(corpusNameProblem("")).toMatch(/name/);
    expect(corpusNameProblem("a".repeat(65))).toMatch(/65 characters/);
    expect(corpusNameProblem("my corpus")).toMatch(/no spaces/);
    expect(corpusNameProblem("café")).toMatch(/letters, digits/);
    expect(corpusNameProblem("../x")).toBeDefined();
  });
});

describe("resume", () => {
  it("is offered only where it can succeed", () => {
    const job = (status: JobView["status"], kind = "file", options: Record<string, unknown> = {}) =>
      canResume({ status, kind, options });
    expect(job("interrupted")).toBe(true);
    expect(job("cancelled", "url")).toBe(true);
    expect(job("failed", "file")).toBe(true);
    // Failed because of the file itself (wrong format, binary, not text): a resume fails again.
    expect(job("failed", "file", { resumable: false })).toBe(false);
    expect(job("interrupted", "records")).toBe(false);
    expect(job("completed")).toBe(false);
    expect(job("running")).toBe(false);
  });
});
