import { describe, expect, it } from "vitest";
import { goldInScheme, LABEL_SCHEME_NAMES, LABEL_SCHEMES, normaliseLabel } from "@/lib/datasets/label-schemes";
import { labelSchemeFor } from "@/lib/debate/tool-mad/labels";
import { productLabel } from "@/lib/debate/protocols";

describe("gold labels into a protocol's scheme", () => {
  it("reads each dataset's spelling of a class as the scheme's", () => {
    expect(normaliseLabel("fever", "supports")).toBe("SUPPORTS");
    expect(normaliseLabel("fever", "refutes")).toBe("REFUTES");
    expect(normaliseLabel("fever", "NOTENOUGHINFO")).toBe("NOT ENOUGH INFO");
    expect(normaliseLabel("fever", "not_enough_info")).toBe("NOT ENOUGH INFO");
    expect(normaliseLabel("fever", "SUPPORT")).toBe("SUPPORTS");
    expect(normaliseLabel("averitec", "conflicting evidence/cherrypicking")).toBe("Conflicting Evidence/Cherrypicking");
    expect(normaliseLabel("averitec", "NOT ENOUGH EVIDENCE")).toBe("Not Enough Evidence");
    expect(normaliseLabel("radar", "half true")).toBe("HALF-TRUE");
  });

  it("never reads one question's label as another's, and FaVIQ has no NEI", () => {
    expect(normaliseLabel("fever", "TRUE")).toBeNull();
    expect(normaliseLabel("radar", "SUPPORTS")).toBeNull();
    expect(normaliseLabel("faviq", "NOT ENOUGH INFO")).toBeNull();
    expect(normaliseLabel("fever", "")).toBeNull();
  });

  it("takes the stored gold if the scheme reads it, else the native label, else leaves it to be reported outside the scheme", () => {
    // AVeriTeC stored for RADAR (gold TRUE, native Supported), scored 4-way.
    expect(goldInScheme("averitec", "TRUE", "Supported")).toBe("Supported");
    expect(goldInScheme("averitec", "Not Enough Evidence", "Not Enough Evidence")).toBe("Not Enough Evidence");
    expect(goldInScheme("fever", "supports", "supports")).toBe("SUPPORTS");
    // PolitiFact's native "pants-fire" is no RADAR label: the stored gold is used.
    expect(goldInScheme("radar", "FALSE", "pants-fire")).toBe("FALSE");
    expect(goldInScheme("faviq", "NOT ENOUGH INFO", null)).toBe("NOT ENOUGH INFO");
  });

  it("has the same labels as the Tool-MAD protocol's schemes, each mapped to the product scale as the contract says", () => {
    for (const name of LABEL_SCHEME_NAMES)
      expect([...labelSchemeFor({ labels: name }).labels]).toEqual([...LABEL_SCHEMES[name]]);
    expect(productLabel("tool-mad", "SUPPORTS")).toBe("TRUE");
    expect(productLabel("tool-mad", "Refuted")).toBe("FALSE");
    expect(productLabel("tool-mad", "Conflicting Evidence/Cherrypicking")).toBe("HALF-TRUE");
    expect(productLabel("tool-mad", "NOT ENOUGH INFO")).toBeNull();
    expect(productLabel("tool-mad", "Not Enough Evidence")).toBeNull();
    expect(productLabel("tool-mad", "UNPARSED")).toBeNull();
  });
});
