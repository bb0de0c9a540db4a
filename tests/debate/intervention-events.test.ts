import { describe, expect, it } from "vitest";
import { type DebateEvent, receiveRemote, setRunning, subscribe } from "@/lib/debate/events";
import type { InterventionView } from "@/lib/debate/interventions/contract";

/**
 * An intervention may be submitted on any server: the one running the debate must take its event
 * from the bus too (every other event of a debate it runs is its own, and comes from the bus only
 * as an echo it ignores).
 */

const view: InterventionView = {
  id: "iv-1",
  kind: "ask",
  by: "Ada",
  at: "2026-11-28T17:00:00.000Z",
  summary: "Asked: Which year?",
  status: "waiting",
  refusal: null,
  beforeSeq: null,
  answeredBySeq: null,
  evidenceRank: null,
};

describe("intervention events across servers", () => {
  it("reach the watchers of the server that runs the debate; its own events from the bus do not", () => {
    const id = "00000000-0000-4000-8000-0000000000a1";
    setRunning(id, true);
    const got: DebateEvent[] = [];
    const off = subscribe(id, (e) => got.push(e));
    try {
      expect(receiveRemote(id, { type: "intervention", intervention: view })).toBe("ok");
      expect(receiveRemote(id, { type: "status", status: "running" })).toBe("ignored");
      expect(got).toEqual([{ type: "intervention", intervention: view }]);
    } finally {
      off();
      setRunning(id, false);
    }
  });
});
