import * as q from "@/db/queries/webhooks";
import type { Executor } from "@/db/queries/webhooks";
import { getConfig } from "@/lib/config";
import { envelopeOf, WEBHOOK_EVENTS, type WebhookEventData, type WebhookEventType } from "./events";

export type WebhookDeps = {
  /**
   * The transaction that makes the change the event reports (the outbox: the event and its
   * deliveries commit with the change or not at all), or the database.
   */
  db: Executor;
  /** The envelope's timestamp; default now. */
  now?: Date;
};

export type Emitted = {
  /** Null when no active subscription wants this event, or it was already emitted (same key). */
  eventId: string | null;
  deliveries: number;
};

export class WebhookPayloadError extends Error {
  constructor(type: string, detail: string) {
    super(`webhook event ${type}: the data does not match its contract (lib/webhooks/events.ts): ${detail}`);
    this.name = "WebhookPayloadError";
  }
}

/**
 * The one way anything raises a webhook event. Records the event once (its key, WEBHOOK_EVENTS) with
 * the exact body subscribers receive, and one pending delivery per active subscription to `type`;
 * the delivery worker (lib/webhooks/queue.ts) sends them. Nothing is sent from here: called inside
 * the transaction of the change, nothing is lost if the process dies before sending, and nothing
 * is announced that did not commit. With no subscriber nothing is recorded.
 */
export async function emitWebhookEvent<T extends WebhookEventType>(
  deps: WebhookDeps,
  type: T,
  data: WebhookEventData[T],
): Promise<Emitted> {
  const body = webhookBody(type, data, deps.now);
  const subscribers = await q.subscribersOf(deps.db, type);
  if (!subscribers.length) return { eventId: null, deliveries: 0 };
  const { eventId, deliveries } = await recordEvent(
    deps.db,
    type,
    body,
    subscribers.map((s) => s.id),
    getConfig().webhooks.maxAttempts,
  );
  return { eventId, deliveries };
}

/**
 * The exact body subscribers receive, built through the documented envelope: what the OpenAPI
 * document's `webhooks` section says is exactly what is sent. A body that breaks it is refused here.
 */
export function webhookBody<T extends WebhookEventType>(type: T, data: WebhookEventData[T], now = new Date()) {
  const parsed = envelopeOf(type).safeParse({ type, timestamp: now.toISOString(), data });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path[0] === "data" ? issue.path.slice(1) : issue.path;
    throw new WebhookPayloadError(type, `${path.join(".") || "(data)"}: ${issue.message}`);
  }
  return parsed.data as { type: T; timestamp: string; data: WebhookEventData[T] };
}

/** Records the event once (its key) and one pending delivery per subscription given. */
export async function recordEvent<T extends WebhookEventType>(
  db: Executor,
  type: T,
  body: { data: WebhookEventData[T] },
  subscriptionIds: string[],
  lastAttempt: number,
): Promise<Emitted & { deliveryIds: string[] }> {
  const key = (WEBHOOK_EVENTS[type].key as (d: WebhookEventData[T]) => string)(body.data);
  const eventId = await q.insertEvent(db, { type, key, body: JSON.stringify(body) });
  if (!eventId) return { eventId: null, deliveries: 0, deliveryIds: [] };
  const rows = await q.insertDeliveries(db, eventId, subscriptionIds, lastAttempt);
  return { eventId, deliveries: rows.length, deliveryIds: rows.map((r) => r.id) };
}

/** A transaction that can open a savepoint (drizzle's `tx.transaction` inside a transaction). */
export type Transaction = Executor & { transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> };

/**
 * For callers inside the transaction of a change that must happen whatever becomes of its event
 * (a verdict, a publication): the event is written in a savepoint of that transaction, so it
 * still commits with the change, but a failure to record it (a payload that breaks the contract,
 * say) is logged and rolls back only the savepoint, never the change.
 */
export async function emitInSavepoint<T extends WebhookEventType>(
  tx: Transaction,
  type: T,
  data: WebhookEventData[T],
): Promise<Emitted> {
  try {
    return await tx.transaction((sp) => emitWebhookEvent({ db: sp }, type, data));
  } catch (e) {
    console.error(`[webhooks] ${type} not recorded: ${(e as Error).message}`);
    return { eventId: null, deliveries: 0 };
  }
}
