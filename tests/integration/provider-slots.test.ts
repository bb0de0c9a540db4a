import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { runLimited, stopUsingGlobalProviderSlots, useGlobalProviderSlots } from "@/lib/ai/concurrency";
import { backend, freshDatabase } from "./test-db";

/**
 * Global provider slots on PostgreSQL (lib/ai/concurrency.ts): a slot left held by a process that
 * died comes free when its lease lapses, and a call gives its slot back when it ends, even when it
 * fails. (Two processes sharing one limit: debate-queue-workers.test.ts.)
 */

let h: DbHandle;
beforeAll(async () => {
  if (backend !== "postgres") return;
  h = await freshDatabase();
  useGlobalProviderSlots(h.db, { leaseMs: 1_000 });
});
afterAll(async () => {
  stopUsingGlobalProviderSlots();
  await h?.close();
});

const slots = (key: string) => h.db.select().from(s.providerSlots).where(eq(s.providerSlots.key, key));

describe.skipIf(backend !== "postgres")("provider slots in PostgreSQL", () => {
  it("takes over a dead process's slot once its lease lapses, and gives its own back", async () => {
    await h.db.execute(
      sql`insert into provider_slots (key, slot, holder, leased_until) values ('dead-key', 0, 'gone:1:x/1', now() + interval '1 second')`,
    );
    let heldBy: string | null | undefined;
    const out = await runLimited("dead-key", 1, async () => {
      heldBy = (await slots("dead-key"))[0]?.holder;
      return "ran";
    });
    expect(out).toBe("ran");
    expect(heldBy).not.toBe("gone:1:x/1");
    expect(heldBy).toBeTruthy();
    expect((await slots("dead-key")).map((r) => r.holder)).toEqual([null]);
  });

  it("gives the slot back when the call fails, and never holds more slots than the limit", async () => {
    await expect(runLimited("fail-key", 2, async () => Promise.reject(new Error("provider down")))).rejects.toThrow(
      "provider down",
    );
    expect((await slots("fail-key")).every((r) => r.holder === null)).toBe(true);
    let most = 0;
    const held = async () => {
      const n = (await slots("busy-key")).filter((r) => r.holder !== null).length;
      most = Math.max(most, n);
    };
    await Promise.all(
      Array.from({ length: 6 }, () =>
        runLimited("busy-key", 2, async () => {
          await held();
          await new Promise((r) => setTimeout(r, 50));
          await held();
        }),
      ),
    );
    expect(most).toBe(2);
    expect((await slots("busy-key")).filter((r) => r.holder === null)).toHaveLength(2);
  });
});
