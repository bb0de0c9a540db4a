import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

describe("DEBATE_LEASE_SECONDS", () => {
  it("is 15 s unless set, and takes the value every process is given", () => {
    expect(parseConfig({}, "/srv/cp").debateLeaseMs).toBe(15_000);
    expect(parseConfig({ DEBATE_LEASE_SECONDS: "5" }, "/srv/cp").debateLeaseMs).toBe(5_000);
  });

  it("refuses a lease shorter than a few heartbeats, naming the variable and what to use", () => {
    let problems: string[] = [];
    try {
      parseConfig({ DEBATE_LEASE_SECONDS: "1" }, "/srv/cp");
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problems = e.problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DEBATE_LEASE_SECONDS: .*at least 3/);
  });
});
