import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import {
  annotationFilterOptions,
  claimNextTask,
  claimTask,
  myRecentAnnotations,
  saveAnnotation,
  skipTask,
  taskContext,
} from "@/db/queries/annotations";
import type { Principal } from "@/lib/auth/policy";
import { seedDebates } from "../helpers/seed-debates";
import { freshDatabase } from "./test-db";

let h: DbHandle;
let plain: string[];
let fromDataset: string[];
const people: Record<string, Principal> = {};

async function person(name: string, roles: UserRole[] = ["annotator"]) {
  const u = await createUser(h.db, { email: `${name}@x.org`, passwordHash: null, roles });
  people[name] = { id: u.id, email: `${name}@x.org`, name: null, roles };
  return people[name]!;
}

beforeAll(async () => {
  h = await freshDatabase();
  for (const n of ["a", "b", "c"]) await person(n);
  plain = await seedDebates(h.db, { count: 2 });
  fromDataset = await seedDebates(h.db, { count: 3, dataset: "liar", variant: "role-anchored" });
  await setSetting(h.db, "annotation_overlap", 2);
});
afterAll(async () => {
  await h?.close();
});

const label = { goldLabel: "TRUE", judgeCorrect: true };

describe("opening a named debate", () => {
  it("claims it while its overlap target is open, reopens one's own, and refuses a full one", async () => {
    const [a, b, c] = [people.a!, people.b!, people.c!];
    const d = plain[0]!;
    expect(await claimTask(h.db, a.id, d)).toBe(true);
    await saveAnnotation(h.db, a, d, label);
    expect(await claimTask(h.db, b.id, d)).toBe(true);
    await saveAnnotation(h.db, b, d, label);
    // Two slots taken: a third annotator cannot reach it by URL.
    expect(await claimTask(h.db, c.id, d)).toBe(false);
    // Its own annotators can still open it to edit.
    expect(await claimTask(h.db, a.id, d)).toBe(true);
    // The queue does not hand it to c either.
    const next = await claimNextTask(h.db, c.id);
    expect(next).not.toBe(d);
    await skipTask(h.db, next!, c.id);
  });

  it("honours the filters", async () => {
    const e = await person("e");
    expect(await claimTask(h.db, e.id, plain[1]!, { variant: "role-anchored" })).toBe(false);
    expect(await claimTask(h.db, e.id, fromDataset[2]!, { variant: "role-anchored" })).toBe(true);
  });
});

describe("task context", () => {
  it("names the dataset and its label vocabulary without the claim's own answer, and maps turns by position", async () => {
    const ctx = (await taskContext(h.db, fromDataset[0]!))!;
    expect(ctx.dataset).toBe("liar");
    expect(ctx.nativeLabels).toEqual(["half-true", "pants-fire", "true"]);
    expect(Object.keys(ctx.turnIds).length).toBeGreaterThan(0);
    expect(Object.values(ctx.turnIds)[0]).toMatch(/^[0-9a-f-]{36}$/);
    const none = (await taskContext(h.db, plain[0]!))!;
    expect(none).toMatchObject({ dataset: null, nativeLabels: [] });
    expect(await taskContext(h.db, "00000000-0000-0000-0000-000000000000")).toBeNull();
  });
});

describe("the annotator's own list and the filter options", () => {
  it("lists only the latest version of one's own labels, newest first", async () => {
    const a = people.a!;
    await saveAnnotation(h.db, a, plain[0]!, { ...label, goldLabel: "FALSE" });
    await saveAnnotation(h.db, a, fromDataset[1]!, label);
    const mine = await myRecentAnnotations(h.db, a.id);
    expect(mine.map((m) => [m.debateId, m.version, m.goldLabel])).toEqual([
      [fromDataset[1]!, 1, "TRUE"],
      [plain[0]!, 2, "FALSE"],
    ]);
    expect(await myRecentAnnotations(h.db, people.b!.id)).toHaveLength(1);
  });

  it("offers the variants of finished debates", async () => {
    const o = await annotationFilterOptions(h.db);
    expect(o.variants).toEqual(["expertise", "role-anchored"]);
    expect(o.runs).toEqual([]);
  });
});
