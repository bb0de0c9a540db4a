import { describe, expect, it } from "vitest";
import { canResume, jobLabel } from "@/lib/corpus/job-view";

describe("re-embed jobs in the job list", () => {
  it("are named for their model and can be resumed once stopped, since their work is read from the database", () => {
    expect(jobLabel("reembed", "local:minilm-l6")).toBe("re-embed with local:minilm-l6");
    for (const status of ["failed", "cancelled", "interrupted"] as const)
      expect(canResume({ status, kind: "reembed", options: {} })).toBe(true);
    expect(canResume({ status: "completed", kind: "reembed", options: {} })).toBe(false);
    expect(canResume({ status: "running", kind: "reembed", options: {} })).toBe(false);
  });
});
