import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import {
  AnnotationError,
  assignmentOf,
  claimNextTask,
  claimTask,
  currentAnnotations,
  queueSummary,
  saveAnnotation,
  skipTask,
  undoSkip,
} from "@/db/queries/annotations";
import type { Principal } from "@/lib/auth/policy";
import { seedDebates } from "../helpers/seed-debates";
import { freshDatabase } from "./test-db";

let h: DbHandle;
let debates: string[];
const people: Record<string, Principal> = {};

beforeAll(async () => {
  h = await freshDatabase();
  for (const n of ["a", "b", "c", "d"]) {
    const u = await createUser(h.db, { email: `${n}@x.org`, passwordHash: null, roles: ["annotator"] });
    people[n] = { id: u.id, email: `${n}@x.org`, name: null, roles: ["annotator"] };
  }
  debates = await seedDebates(h.db, { count: 3 });
  await setSetting(h.db, "annotation_overlap", 2);
});
afterAll(async () => {
  await h?.close();
});

const label = { goldLabel: "TRUE", judgeCorrect: true };

describe("assignments come only from the queue", () => {
  it("skipping a debate one was never given creates nothing, so it cannot open a third slot on a full debate", async () => {
    const [a, b, c] = [people.a!, people.b!, people.c!];
    const full = debates[0]!;
    for (const p of [a, b]) {
      expect(await claimTask(h.db, p.id, full)).toBe(true);
      await saveAnnotation(h.db, p, full, label);
    }
    expect(await skipTask(h.db, full, c.id)).toBe(false);
    expect(await assignmentOf(h.db, full, c.id)).toBeNull();
    // Saving re-checks the overlap rule itself, whatever rows exist.
    await expect(saveAnnotation(h.db, c, full, label)).rejects.toThrow(AnnotationError);
    await expect(saveAnnotation(h.db, c, full, label)).rejects.toThrow(/already has 2 annotators/);
    expect((await currentAnnotations(h.db, [full])).length).toBe(2);
    // The two who labelled it can still edit their own labels.
    expect((await saveAnnotation(h.db, a, full, { ...label, goldLabel: "FALSE" })).version).toBe(2);
  });

  it("a skipped debate cannot be labelled until the skip is undone, and undoing re-checks the overlap", async () => {
    const [c, d] = [people.c!, people.d!];
    const mine = (await claimNextTask(h.db, c.id))!;
    expect(await skipTask(h.db, mine, c.id)).toBe(true);
    expect((await assignmentOf(h.db, mine, c.id))?.status).toBe("skipped");
    await expect(saveAnnotation(h.db, c, mine, label)).rejects.toThrow(/skipped/);
    expect(await undoSkip(h.db, mine, c.id)).toBe(true);
    expect((await assignmentOf(h.db, mine, c.id))?.status).toBe("assigned");
    expect((await saveAnnotation(h.db, c, mine, label)).version).toBe(1);
    // A submitted task is not skipped afterwards.
    expect(await skipTask(h.db, mine, c.id)).toBe(false);
    expect((await assignmentOf(h.db, mine, c.id))?.status).toBe("submitted");

    // d skips a debate; meanwhile two others fill it; d's undo must not make a third slot.
    const other = debates.find((x) => x !== debates[0] && x !== mine)!;
    expect(await claimTask(h.db, d.id, other)).toBe(true);
    expect(await skipTask(h.db, other, d.id)).toBe(true);
    for (const p of [people.a!, people.b!]) {
      expect(await claimTask(h.db, p.id, other)).toBe(true);
      await saveAnnotation(h.db, p, other, label);
    }
    expect(await undoSkip(h.db, other, d.id)).toBe(false);
    expect((await assignmentOf(h.db, other, d.id))?.status).toBe("skipped");
  });
});

describe("the queue's counts", () => {
  it("say how many debates are left for this annotator, so they agree with an empty queue", async () => {
    const h2 = await freshDatabase();
    try {
      await setSetting(h2.db, "annotation_overlap", 2);
      const ids = await seedDebates(h2.db, { count: 2 });
      const u = await createUser(h2.db, { email: "q@x.org", passwordHash: null, roles: ["annotator"] });
      expect(await queueSummary(h2.db, u.id)).toMatchObject({ open: 2, forMe: 2, skippedByMe: 0 });
      for (const _ of ids) expect(await skipTask(h2.db, (await claimNextTask(h2.db, u.id))!, u.id)).toBe(true);
      expect(await claimNextTask(h2.db, u.id)).toBeNull();
      // Both still need labels from others, but none is left for this annotator: the page says so.
      expect(await queueSummary(h2.db, u.id)).toMatchObject({ open: 2, forMe: 0, skippedByMe: 2 });
      expect(await undoSkip(h2.db, ids[0]!, u.id)).toBe(true);
      expect(await queueSummary(h2.db, u.id)).toMatchObject({ forMe: 1, skippedByMe: 1 });
      // A debate someone is labelling still needs its labels: held slots are not labels in.
      const v = await createUser(h2.db, { email: "v@x.org", passwordHash: null, roles: ["annotator"] });
      const w = await createUser(h2.db, { email: "w@x.org", passwordHash: null, roles: ["annotator"] });
      expect(await claimTask(h2.db, v.id, ids[1]!)).toBe(true);
      expect(await claimTask(h2.db, w.id, ids[1]!)).toBe(true);
      expect(await queueSummary(h2.db, v.id)).toMatchObject({ open: 2, forMe: 2 });
    } finally {
      await h2.close();
    }
  });
});
