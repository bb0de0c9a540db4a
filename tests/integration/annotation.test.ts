import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import {
  auditTrail,
  claimNextTask,
  currentAnnotations,
  peekNextTask,
  saveAnnotation,
  skipTask,
} from "@/db/queries/annotations";
import { visibleAnnotations } from "@/lib/auth/visibility";
import type { Principal } from "@/lib/auth/policy";
import { seedDebates } from "../helpers/seed-debates";
import { freshDatabase } from "./test-db";

let h: DbHandle;
let debates: string[];
const people: Record<string, Principal> = {};

async function person(email: string, roles: UserRole[]) {
  const u = await createUser(h.db, { email, passwordHash: null, roles });
  people[email] = { id: u.id, email, name: null, roles };
}

beforeAll(async () => {
  h = await freshDatabase();
  for (const e of ["a", "b", "c"]) await person(`${e}@x.org`, ["annotator"]);
  await person("j@x.org", ["journalist"]);
  await person("admin@x.org", ["admin"]);
  debates = await seedDebates(h.db, { count: 4 });
  await setSetting(h.db, "annotation_overlap", 2);
});
afterAll(async () => {
  await h?.close();
});

const label = { goldLabel: "HALF-TRUE", judgeCorrect: true, rationale: "E1 shows the figure but E2 the context." };

describe("the annotation queue", () => {
  it("never hands an annotator the same debate twice, fills overlap targets first, and stops at the target", async () => {
    const a = people["a@x.org"]!;
    const b = people["b@x.org"]!;
    const c = people["c@x.org"]!;
    const first = (await claimNextTask(h.db, a.id))!;
    // Until submitted or skipped, asking again returns the same open task.
    expect(await claimNextTask(h.db, a.id)).toBe(first);
    await saveAnnotation(h.db, a, first, label);
    // b is offered the debate a started, so its overlap of 2 is met before new debates begin.
    expect(await claimNextTask(h.db, b.id)).toBe(first);
    await saveAnnotation(h.db, b, first, { ...label, goldLabel: "FALSE" });
    // Target met: c gets another debate.
    const forC = await claimNextTask(h.db, c.id);
    expect(forC).not.toBe(first);
    await skipTask(h.db, forC!, c.id);
    const seen = new Set<string>([forC!]);
    for (let i = 0; i < 3; i++) {
      const next = await claimNextTask(h.db, c.id);
      if (!next) break;
      expect(seen.has(next)).toBe(false);
      seen.add(next);
      await skipTask(h.db, next, c.id);
    }
    // c skipped everything else; the first debate is full, so nothing is left for c.
    expect(await peekNextTask(h.db, c.id)).toBeNull();
  });

  it("filters by verdict", async () => {
    const [only] = await h.db.select({ id: s.verdicts.debateId }).from(s.verdicts).where(eq(s.verdicts.label, "FALSE"));
    const d = people["d@x.org"] ?? (await person("d@x.org", ["annotator"]), people["d@x.org"]!);
    const ids = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const id = await claimNextTask(h.db, d.id, { verdict: "FALSE" });
      if (!id) break;
      ids.add(id);
      await skipTask(h.db, id, d.id);
    }
    expect([...ids]).toEqual([only!.id]);
  });
});

describe("labels", () => {
  it("a journalist cannot label", async () => {
    await expect(saveAnnotation(h.db, people["j@x.org"]!, debates[1]!, label)).rejects.toThrow(/Only annotators/);
  });

  it("an edit is a new version with an audit row of old and new values; the database refuses in-place updates", async () => {
    const a = people["a@x.org"]!;
    const d = debates[2]!;
    const v1 = await saveAnnotation(h.db, a, d, label);
    const v2 = await saveAnnotation(h.db, a, d, {
      ...label,
      goldLabel: "TRUE",
      rationale: "On reflection, E1 settles it.",
    });
    expect(v2).toMatchObject({ version: 2, supersedesId: v1.id, goldLabel: "TRUE" });
    const trail = await auditTrail(h.db, d, a.id);
    expect(trail.map((t) => t.audit.action)).toEqual(["create", "edit"]);
    expect(trail[1]!.audit.oldValue).toMatchObject({ version: 1, goldLabel: "HALF-TRUE" });
    expect(trail[1]!.audit.newValue).toMatchObject({ version: 2, goldLabel: "TRUE" });
    expect(trail[1]!.email).toBe("a@x.org");
    await expect(h.db.execute(sql`update annotations set gold_label = 'FALSE' where id = ${v1.id}`)).rejects.toThrow();
    await expect(h.db.execute(sql`update annotation_audit set action = 'x'`)).rejects.toThrow();
    // Both versions are still there.
    expect((await h.db.select().from(s.annotations).where(eq(s.annotations.debateId, d))).length).toBe(2);
  });

  it("nobody changes someone else's annotation: another annotator's save is their own version, the first stays", async () => {
    const a = people["a@x.org"]!;
    const b = people["b@x.org"]!;
    const d = debates[2]!;
    await saveAnnotation(h.db, b, d, { ...label, goldLabel: "FALSE" });
    const current = await currentAnnotations(h.db, [d]);
    expect(current.find((x) => x.annotatorId === a.id)).toMatchObject({ goldLabel: "TRUE", version: 2 });
    expect(current.find((x) => x.annotatorId === b.id)).toMatchObject({ goldLabel: "FALSE", version: 1 });
  });

  it("with blind mode on, an annotator sees no one else's labels before submitting their own", async () => {
    // A third annotator on a debate that has two labels: the overlap must allow three.
    await person("e@x.org", ["annotator"]);
    await setSetting(h.db, "annotation_overlap", 3);
    const c = people["e@x.org"]!;
    const d = debates[2]!;
    await setSetting(h.db, "blind_annotation", true);
    expect(await visibleAnnotations(h.db, c, d)).toEqual([]);
    expect((await visibleAnnotations(h.db, people["admin@x.org"]!, d)).length).toBe(2);
    await saveAnnotation(h.db, c, d, label);
    expect((await visibleAnnotations(h.db, c, d)).length).toBe(3);
    await setSetting(h.db, "blind_annotation", false);
    await setSetting(h.db, "annotation_overlap", 2);
    expect((await visibleAnnotations(h.db, people["b@x.org"]!, debates[3]!)).length).toBe(0);
  });
});
