import { performance } from "node:perf_hooks";
import type { Database } from "@/db/client";
import * as q from "@/db/queries/webhooks";
import { getConfig } from "@/lib/config";
import { FetchError, safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { retryDelayMs } from "./schedule";
import { isSealed, openSecret, SecretUnreadable, sealSecret } from "./secret-box";
import { messageId, signedHeaders } from "./sign";

/** A receiver should answer quickly (Standard Webhooks suggests doing the work after answering). */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** Of the answer only this much is read and a shorter excerpt kept: it is the receiver's text, not ours. */
const READ_BYTES = 4096;
const EXCERPT_CHARS = 300;
/** A send that takes longer than this (timeout included) is taken again by another worker. */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 45_000;

export type DeliverOptions = {
  /** Which process holds the delivery while sending (logs, and who may record the outcome). */
  holder: string;
  /** Name resolution, replaceable in tests (the address check then judges what it returns). */
  resolve?: Resolver;
};

export type DeliveryResult =
  | { status: "skipped" }
  | { status: "delivered" | "failed" | "refused"; attempt: number; retryAt: Date | null };

/** Printable text only, cut short: what the log may show of a receiver's answer. */
export function excerpt(body: Buffer): string | null {
  const text = body
    .toString("utf8")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .trim();
  if (!text) return null;
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

async function readSome(stream: AsyncGenerator<Buffer>, cancel: () => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= READ_BYTES) break;
    }
  } catch {
    // An answer that broke off still counts by its status; its text is only for the log.
  } finally {
    cancel();
  }
  return Buffer.concat(chunks).subarray(0, READ_BYTES);
}

function failureWords(e: FetchError): string {
  if (e.reason === "redirects")
    return "the target answered with a redirect; webhooks are not redirected: set the final address";
  if (e.reason === "refused-address")
    return `${e.message.replace(/which is not fetched for safety/, "which webhooks are not sent to for safety")}`;
  return e.message;
}

/**
 * One attempt at one delivery, from the queue: takes it (if due and nobody else has it), POSTs the
 * signed body through the guarded fetcher (address checks, timeout, no redirects), and records
 * the attempt with what follows: delivered on a 2xx answer; otherwise pending again after the
 * backoff, or failed once its last attempt is spent. A refused address is never retried: it
 * will not change by waiting.
 */
export async function deliverOnce(db: Database, deliveryId: string, opts: DeliverOptions): Promise<DeliveryResult> {
  const d = await q.leaseDelivery(db, deliveryId, opts.holder, LEASE_MS);
  if (!d) return { status: "skipped" };
  const config = getConfig();
  const started = performance.now();
  let outcome: q.AttemptRecord["outcome"] = "failed";
  let responseStatus: number | null = null;
  let error: string | null = null;
  let responseExcerpt: string | null = null;
  try {
    const secret = await openSecret(db, d.subscriptionId, d.secret);
    // A secret from before encryption is sealed the first time it is used (failing that, the worker's next start does).
    if (!isSealed(d.secret))
      await sealSecret(db, d.subscriptionId, d.secret)
        .then((sealed) => q.replaceStoredSecret(db, d.subscriptionId, d.secret, sealed))
        .catch(() => undefined);
    const res = await safeFetch(d.url, {
      method: "POST",
      body: d.body,
      headers: {
        "content-type": "application/json",
        "user-agent": "Counterpoint-Webhooks/1",
        ...signedHeaders(secret, messageId(d.eventId), d.body),
      },
      allow: config.fetch.allow,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxRedirects: 0,
      maxBytes: 1024 ** 2,
      resolve: opts.resolve,
    });
    responseStatus = res.status;
    responseExcerpt = excerpt(await readSome(res.stream(), res.cancel));
    if (res.status >= 200 && res.status < 300) outcome = "delivered";
    else error = `the target answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}, not 2xx`;
  } catch (e) {
    if (e instanceof FetchError) {
      outcome = e.reason === "refused-address" || e.reason === "scheme" ? "refused" : "failed";
      error = failureWords(e);
    } else if (e instanceof SecretUnreadable) error = e.message;
    else error = `the request could not be made: ${(e as Error).message}`;
  }
  const durationMs = Math.round(performance.now() - started);
  const retryAt =
    outcome === "failed" && d.attempt < d.lastAttempt
      ? new Date(Date.now() + retryDelayMs(d.attempt, config.webhooks.retryBaseMs))
      : null;
  await q.recordAttempt(
    db,
    { id: d.id, attempt: d.attempt, holder: opts.holder },
    { outcome, responseStatus, error, responseExcerpt, durationMs, manual: d.manual },
    retryAt,
  );
  return { status: outcome, attempt: d.attempt, retryAt };
}
