import { describe, expect, it } from "vitest";
import { parseVerdict } from "@/lib/debate/verdict";

describe("verdict parsing", () => {
  it("reads the judge's format", () => {
    expect(parseVerdict("[REASON]: E2 shows the sale was in 2012.\n[VERDICT]: HALF-TRUE")).toEqual({ label: "HALF-TRUE", reason: "E2 shows the sale was in 2012." });
  });

  it("tolerates case, spacing, markdown and 'HALF TRUE'", () => {
    expect(parseVerdict("**[VERDICT]:** **Half True**").label).toBe("HALF-TRUE");
    expect(parseVerdict("[verdict] :  false.").label).toBe("FALSE");
    expect(parseVerdict("VERDICT: True").label).toBe("TRUE");
    expect(parseVerdict("> [VERDICT]: `HALF_TRUE`").label).toBe("HALF-TRUE");
    expect(parseVerdict("[VERDICT]:\nFALSE").label).toBe("FALSE");
  });

  it("takes the last verdict line when there are several", () => {
    expect(parseVerdict("[VERDICT]: TRUE\n...on reflection...\n[REASON]: context.\n[VERDICT]: FALSE")).toMatchObject({ label: "FALSE", reason: "context." });
  });

  it("does not guess", () => {
    expect(parseVerdict("The claim is mostly true.").label).toBeNull();
    expect(parseVerdict("[VERDICT]: MOSTLY TRUE").label).toBeNull();
    expect(parseVerdict("[VERDICT]: UNCLEAR, perhaps TRUE").label).toBeNull();
    expect(parseVerdict("").label).toBeNull();
  });

  it("does not read TRUE out of HALF-TRUE", () => {
    expect(parseVerdict("[VERDICT]: HALF-TRUE").label).toBe("HALF-TRUE");
  });
});
