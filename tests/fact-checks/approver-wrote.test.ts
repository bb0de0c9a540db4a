import { describe, expect, it } from "vitest";
import { wroteWaitingText } from "@/lib/fact-checks/approval";

// The one rule the service and the edit page share: who wrote waiting text is not offered, nor allowed, to approve it.
describe("wroteWaitingText", () => {
  it("is true for an author of any waiting version", () => {
    expect(wroteWaitingText(["a", "me"], "me")).toBe(true);
  });
  it("is false for an editor who wrote none of it", () => {
    expect(wroteWaitingText(["a", "b"], "me")).toBe(false);
    expect(wroteWaitingText([], "me")).toBe(false);
  });
});
