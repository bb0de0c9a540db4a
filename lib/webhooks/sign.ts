import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/*
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
 * 32 random bytes; each request carries webhook-id, webhook-timestamp (Unix seconds) and
 * webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. The `standardwebhooks`
 * library does the signing, so a receiver using any Standard Webhooks library verifies it.
 */

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The message id a receiver sees: the event's, the same on every attempt and every "send again". */
export const messageId = (eventId: string) => `msg_${eventId.replaceAll("-", "")}`;

export function signedHeaders(secret: string, msgId: string, body: string, at: Date = new Date()) {
  const signature = new Webhook(secret).sign(msgId, at, body);
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
