import { describe, expect, it } from "vitest";
import { datesCompared } from "@/lib/matching/dates";

describe("datesCompared", () => {
  it("names the dates the window compared, never 'no date' beside a date it used", () => {
    expect(datesCompared({ claimDate: "2024-05-20T00:00:00Z", reviewDate: null }, "2024-06-01")).toBe(
      "Their claim was made 2024-05-20; yours on 2024-06-01.",
    );
    // The earlier check has only its review day; the claim names one year and was given no date.
    expect(
      datesCompared({ claimDate: null, reviewDate: "2026-11-26T10:00:00Z", queryDate: "2022-07-01T00:00:00Z" }, null),
    ).toBe("Their claim's date is unknown (checked 2026-11-26); yours has no date but names the year 2022.");
    expect(datesCompared({ claimDate: null, reviewDate: null, queryDate: null })).toBe(
      "Their claim's date is unknown; yours has no date.",
    );
  });
});
