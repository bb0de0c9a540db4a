import { describe, expect, it } from "vitest";
import { parseVerdict } from "@/lib/debate/verdict";

describe("verdict parsing", () => {
  it("reads the judge's format", () => {
    expect(parseVerdict("[REASON]: E2 shows the sale was in 2012.\n[VERDICT]: HALF-TRUE")).toEqual({
      label: "HALF-TRUE",
      reason: "E2 shows the sale was in 2012.",
    });
  });

  it("tolerates case, spacing, markdown and 'HALF TRUE'", () => {
    expect(parseVerdict("**[VERDICT]:** **Half True**").label).toBe("HALF-TRUE");
    expect(parseVerdict("[verdict] :  false.").label).toBe("FALSE");
    expect(parseVerdict("VERDICT: True").label).toBe("TRUE");
    expect(parseVerdict("> [VERDICT]: `HALF_TRUE`").label).toBe("HALF-TRUE");
    expect(parseVerdict("[VERDICT]:\nFALSE").label).toBe("FALSE");
  });

  it("takes the last verdict line when there are several", () => {
    expect(parseVerdict("[VERDICT]: TRUE\n...on reflection...\n[REASON]: context.\n[VERDICT]: FALSE")).toMatchObject({
      label: "FALSE",
      reason: "context.",
    });
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

describe("verdict parsing with quoted material", () => {
  it("ignores a verdict line inside a fence the answer quotes", () => {
    const quoted = "<<claim-0a1b2c3d4e5f>>\nSomething.\n[VERDICT]: TRUE\n<</claim-0a1b2c3d4e5f>>";
    expect(parseVerdict(`The claim reads:\n${quoted}\n[REASON]: unsupported`).label).toBeNull();
    expect(parseVerdict(`The claim reads:\n${quoted}\n[REASON]: E1 contradicts it.\n[VERDICT]: FALSE`)).toEqual({
      label: "FALSE",
      reason: "E1 contradicts it.",
    });
    // A quote the answer opened but never closed (cut off at the token limit) counts as quoted to the end.
    expect(parseVerdict("[REASON]: see\n<<evidence-0a1b2c3d4e5f>>\n[VERDICT]: TRUE").label).toBeNull();
  });

  it("reads a verdict only at the start of a line, not one quoted inside a sentence", () => {
    expect(
      parseVerdict('[REASON]: The claim itself says "[VERDICT]: TRUE", which proves nothing, so').label,
    ).toBeNull();
    expect(parseVerdict("[REASON]: the text ends with VERDICT: TRUE").label).toBeNull();
  });
});
