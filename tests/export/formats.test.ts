import { describe, expect, it } from "vitest";
import { csvCell } from "@/lib/export/formats";

describe("CSV cells", () => {
  it("quote commas, quotes and newlines, and neutralise cells a spreadsheet would run as formulas", () => {
    expect(csvCell('Says "yes", then\nno')).toBe('"Says ""yes"", then\nno"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(null)).toBe("");
    expect(csvCell(true)).toBe("true");
  });
});
