import { describe, expect, it } from "vitest";
import { ensembleVote, type Ballot } from "@/lib/compare/ensemble";
import { agreeingPairs, agreementOf } from "@/lib/compare/agreement";
import { ensembleLabelWords } from "@/components/compare/outcome-panel";

/** Hand-worked votes: each expected label and explanation is counted on paper, not by the code under test. */

const b = (
  protocol: string,
  productLabel: Ballot["productLabel"],
  confidence: number | null = null,
  pending = false,
): Ballot => ({ debateId: `d-${protocol}`, protocol, productLabel, confidence, pending });

describe("majority vote", () => {
  it("three of four say FALSE", () => {
    const r = ensembleVote("majority", [
      b("radar", "FALSE"),
      b("tool-mad", "FALSE"),
      b("zofia", "TRUE"),
      b("proclaim", "FALSE"),
    ]);
    expect(r.label).toBe("FALSE");
    expect(r.tie).toBe(false);
    expect(r.pending).toBe(0);
    expect(r.noMajority).toBe(false);
    expect(r.explanation).toBe("3 of 4 methods say FALSE.");
    expect(r.votes.map((v) => v.weight)).toEqual([1, 1, 1, 1]);
  });

  it("two against two is a tie with no label, and says which labels tied", () => {
    const r = ensembleVote("majority", [
      b("radar", "TRUE"),
      b("tool-mad", "FALSE"),
      b("zofia", "FALSE"),
      b("proclaim", "TRUE"),
    ]);
    expect(r.label).toBeNull();
    expect(r.tie).toBe(true);
    expect(r.noMajority).toBe(true);
    expect(r.explanation).toBe("Tie: 2 methods say TRUE, 2 methods say FALSE; no majority.");
    expect(ensembleVote("majority", [b("radar", "TRUE"), b("zofia", "FALSE")]).explanation).toBe(
      "Tie: 1 method says TRUE, 1 method says FALSE; no majority.",
    );
  });

  it("two of four is the most votes but not a majority: 2-1-1 gives no label", () => {
    const r = ensembleVote("majority", [
      b("radar", "FALSE"),
      b("tool-mad", "TRUE"),
      b("zofia", "FALSE"),
      b("proclaim", "HALF-TRUE"),
    ]);
    expect(r.label).toBeNull();
    expect(r.tie).toBe(false);
    expect(r.noMajority).toBe(true);
    expect(r.explanation).toBe(
      "No majority: 2 of 4 methods say FALSE, 1 says TRUE, 1 says HALF-TRUE; no label has more than half of the votes.",
    );
    expect(ensembleLabelWords(r)).toBe("no majority");
    // The same two FALSE votes are a majority once the other two methods gave no usable verdict: more than half of the votes cast.
    const cast = ensembleVote("majority", [
      b("radar", "FALSE"),
      b("tool-mad", null),
      b("zofia", "FALSE"),
      b("proclaim", null),
    ]);
    expect(cast).toMatchObject({ label: "FALSE", noMajority: false });
    expect(cast.explanation).toBe("2 of 2 methods say FALSE. 2 methods gave no usable verdict and did not vote.");
  });

  it("a method without a usable verdict does not vote, and is said so", () => {
    const r = ensembleVote("majority", [b("radar", "HALF-TRUE"), b("tool-mad", null), b("proclaim", "HALF-TRUE")]);
    expect(r.label).toBe("HALF-TRUE");
    expect(r.votes.find((v) => v.protocol === "tool-mad")!.weight).toBe(0);
    expect(r.explanation).toBe("2 of 2 methods say HALF-TRUE. 1 method gave no usable verdict and did not vote.");
  });

  it("is provisional while methods still run", () => {
    const r = ensembleVote("majority", [
      b("radar", "TRUE"),
      b("tool-mad", null, null, true),
      b("proclaim", null, null, true),
    ]);
    expect(r.label).toBe("TRUE");
    expect(r.pending).toBe(2);
    expect(r.explanation).toBe("1 of 1 method says TRUE. Provisional: 2 methods still running.");
  });

  it("nothing to vote on gives no label and no tie", () => {
    const r = ensembleVote("majority", [b("radar", null, null, true), b("proclaim", null, null, true)]);
    expect(r).toMatchObject({ label: null, tie: false, noMajority: false, pending: 2 });
    expect(r.explanation).toMatch(/^No method has reached a verdict yet\./);
    const done = ensembleVote("majority", [b("radar", null), b("proclaim", null)]);
    expect(done.explanation).toMatch(/^No method reached a usable verdict/);
  });
});

describe("confidence-weighted vote", () => {
  it("one confident method outweighs two unsure ones: 0.95 for TRUE against 0.4 + 0.45 = 0.85 for FALSE", () => {
    const r = ensembleVote("confidence-weighted", [
      b("radar", "TRUE", 0.95),
      b("tool-mad", "FALSE", 0.4),
      b("proclaim", "FALSE", 0.45),
    ]);
    expect(r.label).toBe("TRUE");
    expect(r.tie).toBe(false);
    expect(r.votes.map((v) => v.weight)).toEqual([0.95, 0.4, 0.45]);
    expect(r.explanation).toBe(
      "TRUE wins on confidence: 0.95 for TRUE, 0.85 for FALSE (each method's vote counts as much as its confidence).",
    );
    // The same ballots by majority: FALSE, 2 of 3.
    expect(
      ensembleVote("majority", [b("radar", "TRUE", 0.95), b("tool-mad", "FALSE", 0.4), b("proclaim", "FALSE", 0.45)])
        .label,
    ).toBe("FALSE");
  });

  it("equal sums tie, even through floating-point: 0.1 + 0.2 against 0.3", () => {
    const r = ensembleVote("confidence-weighted", [
      b("radar", "FALSE", 0.1),
      b("tool-mad", "FALSE", 0.2),
      b("proclaim", "TRUE", 0.3),
    ]);
    expect(r.tie).toBe(true);
    expect(r.label).toBeNull();
    expect(r.explanation).toBe("Tie on confidence: 0.3 for FALSE, 0.3 for TRUE; no label wins.");
  });

  it("a verdict without a confidence votes with 0.5; confidences outside 0..1 are clamped", () => {
    const r = ensembleVote("confidence-weighted", [
      b("radar", "TRUE", null),
      b("tool-mad", "FALSE", 1.7),
      b("zofia", "HALF-TRUE", -0.2),
    ]);
    expect(r.votes.map((v) => v.weight)).toEqual([0.5, 1, 0]);
    expect(r.label).toBe("FALSE");
  });

  it("every voter at confidence 0 decides nothing", () => {
    const r = ensembleVote("confidence-weighted", [b("radar", "TRUE", 0), b("proclaim", "TRUE", 0)]);
    expect(r).toMatchObject({ label: null, tie: true });
  });
});

describe("agreement", () => {
  it("groups methods by label, largest first, those without a verdict last", () => {
    const a = agreementOf([
      { protocol: "radar", productLabel: "TRUE" },
      { protocol: "tool-mad", productLabel: null },
      { protocol: "zofia", productLabel: "FALSE" },
      { protocol: "proclaim", productLabel: "FALSE" },
    ]);
    expect(a.allAgree).toBe(false);
    expect(a.groups).toEqual([
      { productLabel: "FALSE", protocols: ["zofia", "proclaim"] },
      { productLabel: "TRUE", protocols: ["radar"] },
      { productLabel: null, protocols: ["tool-mad"] },
    ]);
    expect(
      agreeingPairs([
        { protocol: "radar", productLabel: "TRUE" },
        { protocol: "zofia", productLabel: "FALSE" },
        { protocol: "proclaim", productLabel: "FALSE" },
      ]),
    ).toEqual([["zofia", "proclaim"]]);
  });

  it("all agree only when every method reached the same usable label", () => {
    expect(
      agreementOf([
        { protocol: "radar", productLabel: "FALSE" },
        { protocol: "proclaim", productLabel: "FALSE" },
      ]).allAgree,
    ).toBe(true);
    expect(
      agreementOf([
        { protocol: "radar", productLabel: null },
        { protocol: "proclaim", productLabel: null },
      ]).allAgree,
    ).toBe(false);
    expect(agreementOf([{ protocol: "radar", productLabel: "FALSE" }]).allAgree).toBe(false);
  });
});
