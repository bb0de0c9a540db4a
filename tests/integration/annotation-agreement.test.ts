import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import { claimTask, saveAnnotation } from "@/db/queries/annotations";
import { agreementFor } from "@/lib/annotation/load";
import type { Principal } from "@/lib/auth/policy";
import { seedDebates } from "../helpers/seed-debates";
import { freshDatabase } from "./test-db";
import { eq } from "drizzle-orm";
import * as s from "@/db/schema";

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

describe("the agreement page's counts", () => {
  it("rests Fleiss' kappa and Krippendorff's alpha on the 3 debates with two labels, not on all 4 labelled", async () => {
    await setSetting(h.db, "annotation_overlap", 2);
    const people: Principal[] = [];
    for (const n of ["a", "b"]) {
      const u = await createUser(h.db, { email: `${n}@x.org`, passwordHash: null, roles: ["annotator"] });
      people.push({ id: u.id, email: `${n}@x.org`, name: null, roles: ["annotator"] });
    }
    const debates = await seedDebates(h.db, { count: 4 });
    const labels: Array<[string, string | null]> = [
      ["TRUE", "TRUE"],
      ["FALSE", "FALSE"],
      ["TRUE", "HALF-TRUE"],
      ["FALSE", null],
    ];
    for (const [i, pair] of labels.entries()) {
      for (const [j, label] of pair.entries()) {
        if (!label) continue;
        expect(await claimTask(h.db, people[j]!.id, debates[i]!)).toBe(true);
        await saveAnnotation(h.db, people[j]!, debates[i]!, { goldLabel: label });
      }
    }
    const r = await agreementFor(h.db, {}, { resamples: 20 });
    expect(r.items).toBe(4);
    expect(r.annotations).toBe(7);
    expect(r.fleissKappa.n).toBe(3);
    expect(r.krippendorffAlpha.n).toBe(3);
    expect(r.pairs).toHaveLength(1);
    expect(r.pairs[0]!.n).toBe(3);
  });
});

describe("the judge against the annotators", () => {
  it("reads the judge's own label onto the gold labels' scale: ZoFia's FAKE meets an annotator's FALSE", async () => {
    const u = await createUser(h.db, { email: "z@x.org", passwordHash: null, roles: ["annotator"] });
    const who: Principal = { id: u.id, email: "z@x.org", name: null, roles: ["annotator"] };
    const [id] = await seedDebates(h.db, { count: 1 });
    await h.db.update(s.debates).set({ protocol: "zofia" }).where(eq(s.debates.id, id!));
    await h.db.update(s.verdicts).set({ label: "FAKE" }).where(eq(s.verdicts.debateId, id!));
    expect(await claimTask(h.db, who.id, id!)).toBe(true);
    await saveAnnotation(h.db, who, id!, { goldLabel: "FALSE" });
    const r = await agreementFor(h.db, {}, { resamples: 20 });
    expect(Object.keys(r.judge.confusion)).not.toContain("FAKE");
    expect(r.judge.confusion.FALSE?.FALSE).toBeGreaterThanOrEqual(1);
  });
});
