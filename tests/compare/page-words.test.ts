import { describe, expect, it } from "vitest";
import type { ComparisonMember } from "@/lib/compare/types";
import type { ProductLabel } from "@/lib/debate/types";
import { costWords, durationWords, memberName, outcome } from "@/components/compare/words";

let n = 0;
function member(
  protocol: string,
  status: ComparisonMember["status"],
  label?: string,
  productLabel?: ProductLabel | null,
  preset: string | null = null,
): ComparisonMember {
  n += 1;
  return {
    debateId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    protocol,
    preset,
    title: `${protocol} (${preset ?? "default settings"})`,
    status,
    verdict: label
      ? { label, productLabel: productLabel ?? null, confidence: 0.8, reason: "Because.", decidedBy: null }
      : null,
    tokens: { prompt: 10, completion: 5 },
    calls: 2,
    costUsd: null,
    durationMs: 1000,
    error: null,
  };
}

describe("the comparison's outcome in words", () => {
  it("names the majority, then the method that found not enough evidence", () => {
    const o = outcome({
      members: [
        member("radar", "completed", "FALSE", "FALSE"),
        member("zofia", "completed", "FALSE", "FALSE"),
        member("proclaim", "completed", "REFUTE", "FALSE"),
        member("tool-mad", "completed", "NOT ENOUGH INFO", null),
      ],
    });
    expect(o.sentence).toBe("3 of 4 methods say False; Tool-MAD found not enough evidence.");
    expect(o.provisional).toBe(false);
    expect(o.allAgree).toBe(false);
  });

  it("says when all agree", () => {
    const o = outcome({
      members: [
        member("radar", "completed", "TRUE", "TRUE"),
        member("tool-mad", "completed", "SUPPORTS", "TRUE"),
        member("zofia", "completed", "TRUE", "TRUE"),
      ],
    });
    expect(o.sentence).toBe("All 3 methods say True.");
    expect(o.allAgree).toBe(true);
  });

  it("is provisional while methods run, and names the minority by name", () => {
    const o = outcome({
      members: [
        member("radar", "completed", "FALSE", "FALSE"),
        member("zofia", "completed", "FALSE", "FALSE"),
        member("tool-mad", "completed", "SUPPORTS", "TRUE"),
        member("proclaim", "running"),
        member("radar", "queued", undefined, undefined, "x"),
      ],
    });
    expect(o.provisional).toBe(true);
    expect(o.running).toBe(2);
    expect(o.sentence).toBe(
      "2 of 5 methods say False; Tool-MAD says True; PROClaim is still arguing; radar (x) is waiting to start.",
    );
  });

  it("groups members without a verdict by why, and never counts a running member's early verdict", () => {
    const o = outcome({
      members: [member("radar", "running", "TRUE", "TRUE"), member("zofia", "running"), member("proclaim", "failed")],
    });
    expect(o.sentence).toBe("RADAR and ZoFia are still arguing; PROClaim failed.");
  });

  it("names two runs of one protocol by their titles", () => {
    const a = member("proclaim", "completed", "SUPPORT", "TRUE", null);
    const b = member("proclaim", "completed", "REFUTE", "FALSE", "no-switch");
    expect(memberName(a, [a, b])).toBe("proclaim (default settings)");
    expect(outcome({ members: [a, b] }).sentence).toBe(
      "Proclaim (default settings) says True; proclaim (no-switch) says False.",
    );
  });
});

describe("numbers in words", () => {
  it("shows small costs with four decimals, unknown prices as unknown", () => {
    expect(costWords(0.00123)).toBe("$0.0012");
    expect(costWords(0.0123)).toBe("$0.0123");
    expect(costWords(1.5)).toBe("$1.50");
    expect(costWords(null)).toBe("unknown");
    // A self-hosted or local model costs nothing, said as the debate form says it (not "$0.0000").
    expect(costWords(0)).toBe("$0 (local or self-hosted models)");
    expect(durationWords(83_000)).toBe("1 min 23 s");
    expect(durationWords(4_250)).toBe("4.3 s");
  });
});
