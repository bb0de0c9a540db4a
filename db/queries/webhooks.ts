import { and, arrayContains, arrayOverlaps, desc, eq, sql } from "drizzle-orm";
import { anyUuid, inChunks } from "@/db/bulk";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import type { WebhookEventType } from "@/db/schema";
import { cursorAt, keysetBefore, type Cursor } from "./keyset";
import { deadlineHoldSet, deadlineReleaseSet, deadlineTakeable, heldBy, webhookDeliveryLease } from "./leases";

/** A transaction or the database: both have the same query builder. */
export type Executor = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

// --- subscriptions ---------------------------------------------------------------------------

export type SubscriptionInput = { url: string; description: string; events: WebhookEventType[]; active: boolean };

export async function insertSubscription(
  db: Executor,
  input: SubscriptionInput & { id: string; secret: string; createdBy: string | null },
) {
  const [row] = await db.insert(s.webhookSubscriptions).values(input).returning();
  return row!;
}

export async function updateSubscription(db: Executor, id: string, input: SubscriptionInput) {
  const [row] = await db
    .update(s.webhookSubscriptions)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(s.webhookSubscriptions.id, id))
    .returning({ id: s.webhookSubscriptions.id });
  return row ?? null;
}

/** `secret` as stored: sealed by lib/webhooks/secret-box.ts. */
export async function setSubscriptionSecret(db: Executor, id: string, secret: string) {
  const [row] = await db
    .update(s.webhookSubscriptions)
    .set({ secret, updatedAt: new Date() })
    .where(eq(s.webhookSubscriptions.id, id))
    .returning({ id: s.webhookSubscriptions.id });
  return row ?? null;
}

/** Rows still holding a secret from before encryption (`whsec_…`, not `v1.…`), for lib/webhooks/secret-box.ts to seal. */
export async function plainSecrets(db: Executor) {
  return db
    .select({ id: s.webhookSubscriptions.id, secret: s.webhookSubscriptions.secret })
    .from(s.webhookSubscriptions)
    .where(sql`${s.webhookSubscriptions.secret} not like 'v1.%'`);
}

/** Replaces the stored form of a secret, only if it is still `from` (a replaced secret is left alone). */
export async function replaceStoredSecret(db: Executor, id: string, from: string, to: string) {
  await db
    .update(s.webhookSubscriptions)
    .set({ secret: to })
    .where(and(eq(s.webhookSubscriptions.id, id), eq(s.webhookSubscriptions.secret, from)));
}

/**
 * Deletes a subscription with its deliveries and their log (the foreign keys cascade): nothing
 * waiting for it is sent; an attempt in flight finds its row gone and records nothing. The events
 * stay (other subscriptions may have them). Null when there was none.
 */
export async function deleteSubscription(db: Executor, id: string) {
  const [row] = await db
    .delete(s.webhookSubscriptions)
    .where(eq(s.webhookSubscriptions.id, id))
    .returning({ id: s.webhookSubscriptions.id, url: s.webhookSubscriptions.url });
  return row ?? null;
}

export async function setSubscriptionActive(db: Executor, id: string, active: boolean) {
  await db
    .update(s.webhookSubscriptions)
    .set({ active, updatedAt: new Date() })
    .where(eq(s.webhookSubscriptions.id, id));
}

/** Subscriptions for the admin page, without their secrets, with who made them and how delivery goes. */
export async function listSubscriptions(db: Executor, opts: { limit?: number; cursor?: Cursor } = {}) {
  const rows = await db
    .select({
      id: s.webhookSubscriptions.id,
      at: cursorAt(s.webhookSubscriptions.createdAt),
      url: s.webhookSubscriptions.url,
      description: s.webhookSubscriptions.description,
      events: s.webhookSubscriptions.events,
      active: s.webhookSubscriptions.active,
      createdAt: s.webhookSubscriptions.createdAt,
      createdBy: s.users.email,
      pending: sql<number>`(select count(*)::int from webhook_deliveries d where d.subscription_id = ${s.webhookSubscriptions.id} and d.status in ('pending', 'sending'))`,
      failed: sql<number>`(select count(*)::int from webhook_deliveries d where d.subscription_id = ${s.webhookSubscriptions.id} and d.status = 'failed')`,
    })
    .from(s.webhookSubscriptions)
    .leftJoin(s.users, eq(s.users.id, s.webhookSubscriptions.createdBy))
    .where(keysetBefore(s.webhookSubscriptions.createdAt, s.webhookSubscriptions.id, opts.cursor))
    .orderBy(desc(s.webhookSubscriptions.createdAt), desc(s.webhookSubscriptions.id))
    // The admin page lists them all (a newsroom has a handful); the API pages them.
    .limit(opts.limit ?? 1000);
  return rows;
}

export async function getSubscription(db: Executor, id: string) {
  const [row] = await db.select().from(s.webhookSubscriptions).where(eq(s.webhookSubscriptions.id, id));
  return row ?? null;
}

/** Active subscriptions that asked for `type`. */
export async function subscribersOf(db: Executor, type: WebhookEventType) {
  return db
    .select({ id: s.webhookSubscriptions.id })
    .from(s.webhookSubscriptions)
    .where(and(eq(s.webhookSubscriptions.active, true), arrayContains(s.webhookSubscriptions.events, [type])));
}

/** Whether any active subscription wants one of `types`. */
export async function anySubscriber(db: Executor, types: WebhookEventType[]): Promise<boolean> {
  const [row] = await db
    .select({ id: s.webhookSubscriptions.id })
    .from(s.webhookSubscriptions)
    .where(and(eq(s.webhookSubscriptions.active, true), arrayOverlaps(s.webhookSubscriptions.events, types)))
    .limit(1);
  return !!row;
}

// --- the outbox ------------------------------------------------------------------------------

/** The event, once: null when an event with this key was already recorded. */
export async function insertEvent(db: Executor, e: { type: WebhookEventType; key: string; body: string }) {
  const [row] = await db
    .insert(s.webhookEvents)
    .values(e)
    .onConflictDoNothing({ target: s.webhookEvents.key })
    .returning({ id: s.webhookEvents.id });
  return row?.id ?? null;
}

export async function insertDeliveries(db: Executor, eventId: string, subscriptionIds: string[], lastAttempt: number) {
  // One row per subscription: few in practice, bounded anyway (db/bulk.ts), one insert per slice.
  return inChunks(subscriptionIds, (slice) =>
    db
      .insert(s.webhookDeliveries)
      .values(slice.map((subscriptionId) => ({ eventId, subscriptionId, lastAttempt })))
      .onConflictDoNothing()
      .returning({ id: s.webhookDeliveries.id }),
  );
}

// --- the queue -------------------------------------------------------------------------------

/**
 * Deliveries ready to send: pending and due, or held by a process whose hold lapsed (it died
 * mid-send), of active subscriptions. Oldest first.
 */
export async function dueDeliveries(
  db: Executor,
  limit: number,
): Promise<Array<{ id: string; attempts: number; resend: boolean }>> {
  const r = await db.execute<{
    id: string;
    attempts: number;
    resend: boolean;
  }>(sql`select webhook_deliveries.id, webhook_deliveries.attempts, webhook_deliveries.resend from webhook_deliveries
    join webhook_subscriptions w on w.id = webhook_deliveries.subscription_id and w.active
    where webhook_deliveries.next_attempt_at <= now() and ${deadlineTakeable(webhookDeliveryLease)}
    order by webhook_deliveries.next_attempt_at limit ${limit}`);
  return r.rows.map((x) => ({ id: x.id, attempts: Number(x.attempts), resend: x.resend === true }));
}

/** When the next delivery falls due (for a worker deciding how long to sleep); null when none waits. */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  const r = await db.execute<{ at: string | null }>(sql`select min(d.next_attempt_at) as at from webhook_deliveries d
    join webhook_subscriptions w on w.id = d.subscription_id and w.active where d.status = 'pending'`);
  const at = r.rows[0]?.at;
  return at ? new Date(at) : null;
}

export type LeasedDelivery = {
  id: string;
  subscriptionId: string;
  eventId: string;
  attempt: number;
  lastAttempt: number;
  manual: boolean;
  url: string;
  secret: string;
  body: string;
};

/**
 * Takes a due delivery for one attempt: only one process sends it (the row is the lock, the same
 * on PGlite and PostgreSQL); the hold lapses after `leaseMs`, so a process that dies mid-send does
 * not keep it forever. Null when it is not due, already taken, finished, or its subscription is off.
 */
export async function leaseDelivery(
  db: Executor,
  id: string,
  holder: string,
  leaseMs: number,
): Promise<LeasedDelivery | null> {
  const r = await db.execute<{
    id: string;
    subscription_id: string;
    event_id: string;
    attempts: number;
    last_attempt: number;
    resend: boolean;
    url: string;
    secret: string;
    body: string;
  }>(sql`with taken as (
      update webhook_deliveries set status = 'sending', attempts = webhook_deliveries.attempts + 1,
        ${deadlineHoldSet(webhookDeliveryLease, holder, leaseMs)}, updated_at = now()
      from webhook_subscriptions w
      where webhook_deliveries.id = ${id}::uuid and w.id = webhook_deliveries.subscription_id and w.active
        and webhook_deliveries.next_attempt_at <= now() and ${deadlineTakeable(webhookDeliveryLease)}
      returning webhook_deliveries.id, webhook_deliveries.subscription_id, webhook_deliveries.event_id,
        webhook_deliveries.attempts, webhook_deliveries.last_attempt, webhook_deliveries.resend, w.url, w.secret)
    select t.*, e.body from taken t join webhook_events e on e.id = t.event_id`);
  const row = r.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    eventId: row.event_id,
    attempt: Number(row.attempts),
    lastAttempt: Number(row.last_attempt),
    manual: row.resend === true,
    url: row.url,
    secret: row.secret,
    body: row.body,
  };
}

export type AttemptRecord = {
  outcome: "delivered" | "failed" | "refused";
  responseStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
  manual: boolean;
};

/**
 * Records an attempt and what follows from it, in one transaction: delivered; pending again at
 * `retryAt`; or failed for good (no `retryAt`). Only the holder may record (a lapsed hold taken by
 * another process is theirs now).
 */
export async function recordAttempt(
  db: Database,
  d: { id: string; attempt: number; holder: string },
  a: AttemptRecord,
  retryAt: Date | null,
) {
  await db.transaction(async (tx) => {
    const [still] = await tx
      .update(s.webhookDeliveries)
      .set({
        status: a.outcome === "delivered" ? "delivered" : retryAt ? "pending" : "failed",
        nextAttemptAt: retryAt ?? sql`${s.webhookDeliveries.nextAttemptAt}`,
        ...deadlineReleaseSet(webhookDeliveryLease),
        resend: false,
        updatedAt: new Date(),
      })
      .where(and(eq(s.webhookDeliveries.id, d.id), heldBy(webhookDeliveryLease, d.holder)))
      .returning({ id: s.webhookDeliveries.id });
    if (!still) return;
    await tx.insert(s.webhookAttempts).values({ deliveryId: d.id, attempt: d.attempt, ...a });
  });
}

/**
 * "Send again": one more attempt, now, whatever the delivery's state (a delivered message is sent
 * again with the same id, so the receiver can tell it is a repeat). False when it is being sent
 * at this moment or does not exist.
 */
export async function resendDelivery(db: Executor, id: string): Promise<boolean> {
  const r = await db.execute<{ id: string }>(sql`update webhook_deliveries set status = 'pending', resend = true,
      last_attempt = attempts + 1, next_attempt_at = now(), updated_at = now()
    where id = ${id}::uuid and status <> 'sending' returning id`);
  return r.rows.length > 0;
}

// --- the log ---------------------------------------------------------------------------------

export async function deliveriesOf(db: Executor, subscriptionId: string, limit = 50) {
  return db
    .select({
      id: s.webhookDeliveries.id,
      eventId: s.webhookDeliveries.eventId,
      type: s.webhookEvents.type,
      status: s.webhookDeliveries.status,
      attempts: s.webhookDeliveries.attempts,
      nextAttemptAt: s.webhookDeliveries.nextAttemptAt,
      createdAt: s.webhookDeliveries.createdAt,
    })
    .from(s.webhookDeliveries)
    .innerJoin(s.webhookEvents, eq(s.webhookEvents.id, s.webhookDeliveries.eventId))
    .where(eq(s.webhookDeliveries.subscriptionId, subscriptionId))
    .orderBy(desc(s.webhookDeliveries.createdAt))
    .limit(limit);
}

/** How many deliveries a subscription has, and how many of them still wait to be sent (the log shows only the latest). */
export async function deliveryCounts(db: Executor, subscriptionId: string) {
  const r = await db.execute<{ total: number; waiting: number }>(sql`select count(*)::int as total,
      (count(*) filter (where status in ('pending', 'sending')))::int as waiting
    from webhook_deliveries where subscription_id = ${subscriptionId}::uuid`);
  return { total: Number(r.rows[0]?.total ?? 0), waiting: Number(r.rows[0]?.waiting ?? 0) };
}

export async function attemptsOf(db: Executor, deliveryIds: string[]) {
  if (!deliveryIds.length) return [];
  return (
    db
      .select()
      .from(s.webhookAttempts)
      // One array parameter whatever the number of deliveries (db/bulk.ts).
      .where(anyUuid(s.webhookAttempts.deliveryId, deliveryIds))
      .orderBy(desc(s.webhookAttempts.attempt))
  );
}

export async function getDelivery(db: Executor, id: string) {
  const [row] = await db.select().from(s.webhookDeliveries).where(eq(s.webhookDeliveries.id, id));
  return row ?? null;
}
