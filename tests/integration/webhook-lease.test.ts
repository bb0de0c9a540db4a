import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import {
  dueDeliveries,
  insertDeliveries,
  insertEvent,
  insertSubscription,
  leaseDelivery,
  recordAttempt,
  type AttemptRecord,
} from "@/db/queries/webhooks";
import { backend, freshDatabase } from "./test-db";

/*
 * A webhook delivery's hold goes through the one lease helper (db/queries/leases.ts, a deadline
 * lease): one sender at a time; a hold past its deadline (the sender died mid-send) is taken by
 * another, and the first sender's late result is then ignored.
 */

let h: DbHandle;
let deliveryId = "";
const sent: AttemptRecord = {
  outcome: "delivered",
  responseStatus: 200,
  error: null,
  responseExcerpt: null,
  durationMs: 5,
  manual: false,
};

beforeAll(async () => {
  h = await freshDatabase();
  const sub = await insertSubscription(h.db, {
    id: crypto.randomUUID(),
    url: "http://127.0.0.1:9/hook",
    description: "t",
    events: ["debate.finished"],
    active: true,
    secret: "x".repeat(32),
    createdBy: null,
  });
  const eventId = (await insertEvent(h.db, { type: "debate.finished", key: "k1", body: "{}" }))!;
  const [d] = await insertDeliveries(h.db, eventId, [sub.id], 5);
  deliveryId = d!.id;
});
afterAll(async () => {
  await h?.close();
});

describe(`webhook deliveries' leases (${backend})`, () => {
  it("one sender holds a delivery until its deadline; then another takes it and the first one's result is ignored", async () => {
    expect((await dueDeliveries(h.db, 10)).map((d) => d.id)).toEqual([deliveryId]);
    const first = await leaseDelivery(h.db, deliveryId, "proc-a", 60_000);
    expect(first?.attempt).toBe(1);
    expect(await leaseDelivery(h.db, deliveryId, "proc-b", 60_000)).toBeNull();
    expect(await dueDeliveries(h.db, 10)).toEqual([]);
    // proc-a died mid-send: its deadline passes.
    await h.db
      .update(s.webhookDeliveries)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(s.webhookDeliveries.id, deliveryId));
    expect((await dueDeliveries(h.db, 10)).map((d) => d.id)).toEqual([deliveryId]);
    const second = await leaseDelivery(h.db, deliveryId, "proc-b", 60_000);
    expect(second?.attempt).toBe(2);
    await recordAttempt(h.db, { id: deliveryId, attempt: 1, holder: "proc-a" }, sent, null);
    const [row] = await h.db.select().from(s.webhookDeliveries).where(eq(s.webhookDeliveries.id, deliveryId));
    expect(row).toMatchObject({ status: "sending", leasedBy: "proc-b" });
    await recordAttempt(h.db, { id: deliveryId, attempt: 2, holder: "proc-b" }, sent, null);
    const [done] = await h.db.select().from(s.webhookDeliveries).where(eq(s.webhookDeliveries.id, deliveryId));
    expect(done).toMatchObject({ status: "delivered", leasedBy: null, leaseUntil: null });
  });
});
