import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createDebateRecord } from "@/db/queries/debates";
import { scriptedModel } from "@/lib/bench/scripted-model";
import type { NoteTarget } from "@/lib/debate/definition";
import { subscribe, type DebateEvent } from "@/lib/debate/events";
import { findMethod } from "@/lib/debate/methods";
import { radarConfigSchema, radarProtocol, type RadarConfig } from "@/lib/debate/radar/protocol";
import { runDebate } from "@/lib/debate/runner";
import { debateView, viewExtras } from "@/lib/debate/view";
import { judgeFreeFilter } from "@/lib/debate/visible-events";
import { promptsHash } from "@/lib/prompts";
import { freshDatabase } from "./test-db";

/**
 * A method's own records reach watchers through its definition, not through the engine: RADAR's
 * checkpoints are method notes (ctx.note) stored in their table, and the live page folds each
 * `note` event with the definition's view hook into what a fresh snapshot shows; the field that
 * names RADAR's domain expert is read from the finished step by the same definition.
 */

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

async function radarDebate(config: Partial<RadarConfig>) {
  const parsed = radarConfigSchema.parse(config);
  return createDebateRecord(h.db, {
    claim: { text: "The boxer sold his medal to help children in the 2022 war." },
    protocol: radarProtocol.name,
    variant: parsed.variant,
    config: parsed,
    models: Object.fromEntries(radarProtocol.roles(parsed).map((r) => [r, "openai:gpt-4o-mini"])),
    promptsHash: promptsHash(radarProtocol.templates(parsed)),
    evidenceMode: "gold",
    evidence: [{ rank: 1, text: "The boxer auctioned his Olympic medal in 2022.", source: "gold" }],
  });
}

async function runWatched(id: string) {
  const events: DebateEvent[] = [];
  const unsubscribe = subscribe(id, (e) => events.push(e));
  const m = scriptedModel("openai:gpt-4o-mini", { pStop: 0.2, verdictProb: 0.9 });
  const outcome = await runDebate(h.db, id, { resolve: () => m.resolved }).finally(unsubscribe);
  expect(outcome).toEqual({ status: "completed" });
  return events;
}

describe("method notes and view extras", () => {
  it("RADAR's checkpoints go out as notes its definition folds into what the stored view shows, hidden from judge-free watchers", async () => {
    const radar = findMethod(radarProtocol.name)!;
    const id = await radarDebate({ earlyStopping: "score-only", rebuttals: 1 });
    const events = await runWatched(id);
    const notes = events.filter((e) => e.type === "note");
    expect(notes.map((n) => n.name)).toEqual(["checkpoint", "checkpoint"]);

    let live: NoteTarget = { checkpoints: [] };
    for (const n of notes) live = { ...live, ...radar.view!.note!(live, n.name, n.value) };
    const stored = (await debateView(h.db, id))!.checkpoints;
    expect(stored.map((c) => c.after)).toEqual(["opening", "rebuttal-1"]);
    // The table keeps scores as 4-byte reals: compared to six places.
    const same = (c: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(c, (_, v) => (typeof v === "number" ? Number(v.toFixed(6)) : v)));
    expect(
      live.checkpoints.map((c) => same(Object.fromEntries(Object.keys(stored[0]!).map((k) => [k, c[k]])))),
    ).toEqual(stored.map(same));
    // A note the definition does not know, or one that does not parse, changes nothing.
    expect(radar.view!.note!(live, "something-else", {})).toBeNull();
    expect(radar.view!.note!(live, "checkpoint", { after: 1 })).toBeNull();
    expect(radar.noteWords!("checkpoint", notes[0]!.value)).toMatch(
      /^checkpoint after opening: s=.* → (stop|continue)$/,
    );
    expect(notes.map((n) => judgeFreeFilter([]).pass(n))).toEqual([null, null]);
  });

  it("the four-agent variant's inferred field is read by RADAR's definition from the finished step; other methods read none", async () => {
    const id = await radarDebate({ variant: "four-agent", earlyStopping: "off", rebuttals: 1 });
    const events = await runWatched(id);
    const view = (await debateView(h.db, id))!;
    expect(view.domain).toMatch(/^[A-Z][a-z]+/);
    // What the event stream sends when the step ends: only the fields found in that step.
    const found = events
      .filter((e) => e.type === "turn-end")
      .map((e) => viewExtras(view.protocol, [{ ...e.turn, status: "completed" }]).domain)
      .filter((d) => d !== null);
    expect(found).toEqual([view.domain]);
    const other = findMethod("zofia")!.name;
    expect(
      viewExtras(other, [{ phase: "domain", role: "judge", kind: "analysis", content: "DOMAIN: Economics" }]),
    ).toEqual({
      domain: null,
    });
  });
});
