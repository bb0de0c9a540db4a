import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import * as q from "@/db/queries/webhooks";
import { sealSecret } from "./secret-box";
import { newWebhookSecret } from "./sign";
import type { SubscriptionInput } from "./subscription-form";
import { webhookTargetRefusal } from "./target-check";

/*
 * Making and deleting webhook subscriptions, for the admin page, the API and the CLI alike. The
 * caller has checked who asks (admins only) and the input's shape (subscription-form.ts); this
 * checks where the address resolves, and makes the signing secret, which is returned this once
 * and stored sealed: no reader of a subscription ever gets it back.
 */

/** A refusal of the subscription asked for, with the field it concerns. */
export class WebhookRequestError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "WebhookRequestError";
  }
}

export async function createSubscription(
  db: Database,
  createdBy: string | null,
  input: SubscriptionInput,
): Promise<{ row: Awaited<ReturnType<typeof q.insertSubscription>>; secret: string }> {
  const why = await webhookTargetRefusal(input.url);
  if (why) throw new WebhookRequestError(why, "url");
  const id = randomUUID();
  const secret = newWebhookSecret();
  const row = await q.insertSubscription(db, {
    ...input,
    id,
    secret: await sealSecret(db, id, secret),
    createdBy,
  });
  return { row, secret };
}

/**
 * Deletes a subscription: what waits for it is never sent, and its delivery log goes with it.
 * False when there was none.
 */
export async function deleteSubscription(db: Database, id: string): Promise<boolean> {
  return (await q.deleteSubscription(db, id)) !== null;
}
