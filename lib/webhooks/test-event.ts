import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import "zod-openapi";
import type { Database } from "@/db/client";
import * as q from "@/db/queries/webhooks";
import type { Resolver } from "@/lib/net/safe-fetch";
import { DELIVERY_TIMEOUT_MS, deliverOnce } from "./deliver";
import { recordEvent, webhookBody } from "./emit";
import { WEBHOOK_HOLDER } from "./queue";

/*
 * "Send a test event": the one service behind the button of /admin/webhooks/{id},
 * `counterpoint webhooks test` and POST /api/v1/webhooks/{id}/test. A `webhook.test` event goes
 * through the same outbox, signing, guarded fetch and delivery log as every event, to the one
 * webhook it was asked for, and is sent at once so whoever asked sees the receiver's answer. It is
 * tried once: a test that failed is sent again by asking again, not by the retry schedule.
 */

export const TEST_MESSAGE =
  "A test from Counterpoint. If your receiver got this and its signature checks out, it is ready for the events it subscribes to.";

export class WebhookTestRefused extends Error {
  constructor(
    readonly code: "not_found" | "disabled",
    message: string,
  ) {
    super(message);
    this.name = "WebhookTestRefused";
  }
}

/** What a test came to: the API's answer (its OpenAPI schema), the console's JSON, the page's sentence. */
export const webhookTestOutcomeSchema = z
  .object({
    testId: z.uuid().meta({ description: "The `data.test.id` of the event the receiver got." }),
    deliveryId: z.uuid(),
    outcome: z.enum(["delivered", "failed", "refused", "pending"]).meta({
      description:
        "`delivered`: the receiver answered 2xx. `failed`: another answer, or none. `refused`: the address is not sent to (a private network not allowed by FETCH_ALLOW_HOSTS). `pending`: a worker took it and had not recorded an answer in time; the delivery log will show it.",
    }),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable().meta({ description: "Why it was not delivered, in a sentence." }),
    responseExcerpt: z.string().nullable().meta({ description: "The start of the receiver's answer, as text." }),
  })
  .meta({ id: "WebhookTestOutcome" });
export type WebhookTestOutcome = z.infer<typeof webhookTestOutcomeSchema>;

export async function sendTestEvent(
  db: Database,
  subscriptionId: string,
  opts: { resolve?: Resolver } = {},
): Promise<WebhookTestOutcome> {
  const sub = await q.getSubscription(db, subscriptionId);
  if (!sub) throw new WebhookTestRefused("not_found", "There is no webhook subscription with this id.");
  if (!sub.active)
    throw new WebhookTestRefused(
      "disabled",
      "This webhook is disabled, and nothing is sent to a disabled webhook: enable it, then send the test.",
    );
  const testId = randomUUID();
  const body = webhookBody("webhook.test", { test: { id: testId, webhookId: sub.id, message: TEST_MESSAGE } });
  const { deliveryIds } = await recordEvent(db, "webhook.test", body, [sub.id], 1);
  const deliveryId = deliveryIds[0]!;
  // Sent here and now; when a worker took it first, its record is waited for (bounded by the
  // send's own time limit).
  await deliverOnce(db, deliveryId, { holder: WEBHOOK_HOLDER, resolve: opts.resolve });
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS + 5_000;
  let status = (await q.getDelivery(db, deliveryId))?.status;
  while ((status === "pending" || status === "sending") && Date.now() < deadline) {
    await sleep(100);
    status = (await q.getDelivery(db, deliveryId))?.status;
  }
  const [last] = await q.attemptsOf(db, [deliveryId]);
  return {
    testId,
    deliveryId,
    outcome: last ? (last.outcome as WebhookTestOutcome["outcome"]) : "pending",
    responseStatus: last?.responseStatus ?? null,
    durationMs: last?.durationMs ?? null,
    error: last?.error ?? null,
    responseExcerpt: last?.responseExcerpt ?? null,
  };
}

/** The outcome in one sentence, for the page and the console. */
export function testOutcomeWords(o: WebhookTestOutcome): string {
  const answer = o.responseStatus ? `answered ${o.responseStatus}` : "gave no answer";
  const took = o.durationMs !== null ? ` in ${o.durationMs} ms` : "";
  if (o.outcome === "delivered") return `Delivered: the receiver ${answer}${took}.`;
  if (o.outcome === "pending")
    return "Sent to the delivery queue; no answer is recorded yet. The delivery log will show it.";
  return `Not delivered${took}: ${o.error ?? `the receiver ${answer}`}.`;
}
