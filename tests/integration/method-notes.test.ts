import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createDebateRecord } from "@/db/queries/debates";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { readNotes, withNote, type ViewNote } from "@/lib/debate/view-notes";
import { checkpointSchema } from "@/lib/debate/radar/checkpoint";
import { notesOf } from "@/db/queries/debate-notes";
import { subscribe, type DebateEvent } from "@/lib/debate/events";
import { findMethod } from "@/lib/debate/methods";
import { radarConfigSchema, radarProtocol, type RadarConfig } from "@/lib/debate/radar/protocol";
import { runDebate } from "@/lib/debate/runner";
import { debateView, viewExtras } from "@/lib/debate/view";
import { judgeFreeFilter } from "@/lib/debate/visible-events";
import { promptsHash } from "@/lib/prompts";
import { freshDatabase } from "./test-db";

/**
 * A method's own records are notes the engine stores and sends: RADAR's checkpoints are declared
 * by its protocol (kind and key), written through ctx.note into the generic notes table, and the
 * live page folds each `note` event by kind and key into exactly what a fresh snapshot shows; only
 * RADAR's views read the value. The field that names RADAR's domain expert is method data too
 * (the view's `extras`), read from the finished step by its definition.
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
  it("RADAR's checkpoints are notes the engine stores and sends: folded live by kind and key they equal the stored view, hidden from judge-free watchers", async () => {
    const radar = findMethod(radarProtocol.name)!;
    const id = await radarDebate({ earlyStopping: "score-only", rebuttals: 1 });
    const events = await runWatched(id);
    const notes = events.filter((e) => e.type === "note");
    expect(notes.map((n) => n.name)).toEqual(["checkpoint", "checkpoint"]);

    let live: ViewNote[] = [];
    for (const n of notes) live = withNote(live, { kind: n.name, key: n.key, value: n.value });
    // Resuming writes a checkpoint again: the same kind and key replaces it, live and stored alike.
    live = withNote(live, { kind: notes[0]!.name, key: notes[0]!.key, value: notes[0]!.value });
    const stored = (await debateView(h.db, id))!.notes;
    expect(stored.map((n) => [n.kind, n.key])).toEqual([
      ["checkpoint", "opening"],
      ["checkpoint", "rebuttal-1"],
    ]);
    expect(live).toEqual(stored);
    expect(readNotes(stored, "checkpoint", checkpointSchema).map((c) => c.decision)).toEqual(["continue", "continue"]);
    // In the table, nothing but the generic row: no method's columns.
    expect(Object.keys((await notesOf(h.db, [id]))[0]!).sort()).toEqual(["debateId", "key", "kind", "value"]);
    // A note that does not parse with the method's schema (an old row) is left out by the reader, not thrown.
    expect(
      readNotes([...stored, { kind: "checkpoint", key: "x", value: { after: 1 } }], "checkpoint", checkpointSchema),
    ).toHaveLength(2);
    expect(radar.noteWords!("checkpoint", notes[0]!.value)).toMatch(
      /^checkpoint after opening: s=.* → (stop|continue)$/,
    );
    expect(notes.map((n) => judgeFreeFilter([]).pass(n))).toEqual([null, null]);
  });

  it("the four-agent variant's inferred field is read by RADAR's definition from the finished step; other methods read none", async () => {
    const id = await radarDebate({ variant: "four-agent", earlyStopping: "off", rebuttals: 1 });
    const events = await runWatched(id);
    const view = (await debateView(h.db, id))!;
    expect(view.extras.domain).toMatch(/^[A-Z][a-z]+/);
    // What the event stream sends when the step ends: only the fields found in that step.
    const found = events
      .filter((e) => e.type === "turn-end")
      .map((e) => viewExtras(view.protocol, [{ ...e.turn, status: "completed" }]).domain)
      .filter((d) => d !== null);
    expect(found).toEqual([view.extras.domain]);
    const other = findMethod("zofia")!.name;
    expect(
      viewExtras(other, [{ phase: "domain", role: "judge", kind: "analysis", content: "DOMAIN: Economics" }]),
    ).toEqual({});
  });
});
