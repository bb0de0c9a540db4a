import type { ZodOpenApiPathsObject } from "zod-openapi";
import { z } from "zod";
import { DELIVERY_TIMEOUT_MS } from "@/lib/webhooks/deliver";
import { durationWords, retrySchedule } from "@/lib/webhooks/schedule";
import { ALL_WEBHOOK_EVENT_TYPES, envelopeOf, WEBHOOK_EVENTS } from "@/lib/webhooks/events";

/*
 * The OpenAPI 3.1 `webhooks` section: one operation per event, its body the very envelope schema
 * the emitter builds every delivery with (lib/webhooks/events.ts), so the document cannot drift
 * from what a receiver gets. A new entry in WEBHOOK_EVENTS appears here by itself.
 */

const signatureHeaders = z.object({
  "webhook-id": z.string().meta({
    description:
      "The message id (`msg_…`): the same on every retry and on a manual resend, so a receiver can drop repeats.",
  }),
  "webhook-timestamp": z.string().meta({ description: "When this attempt was signed, in Unix seconds." }),
  "webhook-signature": z.string().meta({
    description:
      '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the subscription\'s `whsec_` secret (Standard Webhooks); verify it with any Standard Webhooks or Svix library.',
  }),
});

/** `debate.finished` → `DebateFinishedEvent`: the component name a generated client gives the body. */
const componentId = (type: string) =>
  `${type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("")}Event`;

export function webhookOperations(): ZodOpenApiPathsObject {
  // The defaults, not this server's settings: the document (and the client generated from it) is
  // the same on every install.
  const retries = retrySchedule(30_000, 6).map(durationWords).join(", ");
  const out: ZodOpenApiPathsObject = {};
  for (const type of ALL_WEBHOOK_EVENT_TYPES)
    out[type] = {
      post: {
        operationId: `webhook_${type.replace(/\./g, "_")}`,
        tags: ["Webhooks"],
        summary: `${type}: ${WEBHOOK_EVENTS[type].description}`,
        description:
          (WEBHOOK_EVENTS[type] as { subscribable?: false }).subscribable === false
            ? `POSTed to one webhook when an administrator sends it a test (the \`Send a test event\` button of /admin/webhooks/{id}, \`counterpoint webhooks test\`, \`POST /api/v1/webhooks/{id}/test\`), whatever events it chose; signed like every event, tried once and not again. Answer any 2xx within ${DELIVERY_TIMEOUT_MS / 1000} seconds.`
            : `POSTed to every active subscription that chose \`${type}\` (admins make them at /admin/webhooks). Answer any 2xx within ${DELIVERY_TIMEOUT_MS / 1000} seconds; any other answer, or none, is tried again with the same \`webhook-id\`, after waits that grow fourfold from WEBHOOK_RETRY_BASE_SECONDS up to WEBHOOK_MAX_ATTEMPTS attempts (by default ${retries}).`,
        requestParams: { header: signatureHeaders },
        requestBody: {
          required: true,
          content: { "application/json": { schema: envelopeOf(type).meta({ id: componentId(type) }) } },
        },
        responses: { "2XX": { description: "Received; nothing more is sent for this message." } },
      },
    };
  return out;
}
