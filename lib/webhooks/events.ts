import { z } from "zod";
import "zod-openapi";
import { ensembleJsonSchema } from "@/lib/compare/ensemble-json";

/*
 * What each webhook event says. The body every subscriber receives is the envelope the Standard
 * Webhooks specification recommends, `{ type, timestamp, data }`, with `data` as below. These
 * schemas are the contract: the emitter builds every body through them (envelopeOf), so a caller
 * that sends the wrong shape fails where it calls, not at a newsroom's receiver, and the OpenAPI
 * document's `webhooks` section is generated from them (lib/api/openapi-webhooks.ts).
 *
 * Adding an event is one entry in WEBHOOK_EVENTS below: its data schema, what makes it happen
 * once, and its description. The admin page's boxes, the subscription form, the emitter and the
 * document all read that entry; the database stores the name as text.
 */

/** Absolute links need PUBLIC_URL; without it they are null rather than a guess. */
const link = z.url().nullable();
const when = z.iso.datetime({ offset: true });

const verdict = z.object({
  /** The method's own label (TRUE / HALF-TRUE / FALSE, or UNPARSED). */
  label: z.string(),
  /** The label on the product's scale, or null when the method's label does not map (UNPARSED). */
  productLabel: z.string().nullable(),
  confidence: z.number().nullable(),
  reason: z
    .string()
    .nullable()
    .meta({ description: "One plain sentence without citation markers, as the API's debate read gives it." }),
});

const claim = z.object({
  text: z.string(),
  speaker: z.string().nullable(),
  appearanceUrl: z.string().nullable(),
});

export const debateFinishedData = z.object({
  debate: z.object({
    id: z.uuid(),
    url: link,
    /** The method (protocol) that ran, e.g. `radar`. */
    method: z.string(),
    variant: z.string().nullable(),
    /** The comparison this debate is one method of, if any. */
    comparisonId: z.uuid().nullable(),
    claim,
    verdict,
    startedAt: when.nullable(),
    finishedAt: when,
  }),
});

export const comparisonFinishedData = z.object({
  comparison: z.object({
    id: z.uuid(),
    url: link,
    claim,
    /** Each method's debate, in the order the comparison lists them. */
    debates: z.array(
      z.object({
        id: z.uuid(),
        url: link,
        method: z.string(),
        preset: z.string().nullable(),
        verdict,
      }),
    ),
    /** The vote over the members' verdicts, as GET /api/v1/comparisons/{id} gives it; null when none was asked for. */
    ensemble: ensembleJsonSchema.nullable(),
    finishedAt: when,
  }),
});

/** A fact-check as published (or corrected): what a CMS needs to show or link it. */
const factCheck = z.object({
  id: z.uuid(),
  slug: z.string().min(1),
  /** The public page, /fact-checks/<slug>. */
  url: link,
  /** The version this event is about; every publication and correction is a new version. */
  version: z.number().int().positive(),
  claim,
  rating: z.object({
    /** On the product's scale. */
    productLabel: z.string(),
    /** What readers see, e.g. "Mostly false". */
    textualRating: z.string(),
  }),
  /** The debate or comparison it was made from. */
  debateId: z.uuid().nullable(),
  comparisonId: z.uuid().nullable(),
  publishedAt: when,
});

export const factCheckPublishedData = z.object({ factCheck });

export const factCheckCorrectedData = z.object({
  factCheck,
  correction: z.object({ note: z.string().min(1), correctedAt: when }),
});

/** A check-worthy sentence on a live board (docs/live.md): said once, announced once (repeats are not). */
export const liveClaimData = z.object({
  session: z.object({ id: z.uuid(), title: z.string(), url: link }),
  card: z.object({
    id: z.uuid(),
    /** The sender's id of the line it was said in. */
    lineId: z.string(),
    speaker: z.string().nullable(),
    sentence: z.string(),
    /** Milliseconds from the start of the event, and the same as a time code (00:12:03). */
    atMs: z.number().int(),
    timeCode: z.string(),
    /** Check-worthiness, 0..1. */
    score: z.number(),
  }),
  /** The earlier check it matched; null when none did. */
  match: z
    .object({
      claim: z.string(),
      rating: z.string().nullable(),
      publisher: z.string().nullable(),
      url: z.string().nullable(),
      similarity: z.number(),
      /** As the board says it: "Checked before: False, 12 March 2025, by Full Fact". */
      checkedBefore: z.string(),
    })
    .nullable(),
});

/** A test an administrator sends to one webhook (/admin/webhooks/{id}, the CLI, the API). */
export const webhookTestData = z.object({
  test: z.object({
    /** New for every test: a receiver that drops repeats by message id still gets each one. */
    id: z.uuid(),
    webhookId: z.uuid(),
    message: z.string(),
  }),
});

type EventEntry<S extends z.ZodType> = {
  /** The event's `data`. */
  data: S;
  /** What makes it happen once: a second emit with the same key records nothing. */
  key: (data: z.infer<S>) => string;
  /** What a subscriber chooses, in words for the admin page and the OpenAPI document. */
  description: string;
  /** False for an event nobody subscribes to (a test is sent to the one webhook it was asked for). */
  subscribable?: false;
};
const entry = <S extends z.ZodType>(e: EventEntry<S>) => e;

/** Every webhook event, in the order the admin page and the document list them. */
export const WEBHOOK_EVENTS = {
  "debate.finished": entry({
    data: debateFinishedData,
    key: (d) => `debate.finished:${d.debate.id}`,
    description: "a debate reached its verdict",
  }),
  "comparison.finished": entry({
    data: comparisonFinishedData,
    key: (d) => `comparison.finished:${d.comparison.id}`,
    description: "every method of a comparison reached its verdict",
  }),
  "fact_check.published": entry({
    data: factCheckPublishedData,
    // Each version of a fact-check is published or corrected once.
    key: (d) => `fact_check.published:${d.factCheck.id}:${d.factCheck.version}`,
    description: "a fact-check was published",
  }),
  "fact_check.corrected": entry({
    data: factCheckCorrectedData,
    key: (d) => `fact_check.corrected:${d.factCheck.id}:${d.factCheck.version}`,
    description: "a published fact-check was corrected",
  }),
  "live.claim_flagged": entry({
    data: liveClaimData,
    // A card is announced once; a repeat of its claim is a card of its group, never announced.
    key: (d) => `live.claim_flagged:${d.card.id}`,
    description: "a sentence on a live board scored at or above the alert threshold set on /admin",
  }),
  "live.claim_matched": entry({
    data: liveClaimData,
    key: (d) => `live.claim_matched:${d.card.id}`,
    description: "a sentence on a live board matched an earlier check",
  }),
  "webhook.test": entry({
    data: webhookTestData,
    key: (d) => `webhook.test:${d.test.id}`,
    description:
      "an administrator sent a test; it goes only to the webhook it was sent from, whatever that webhook subscribes to",
    subscribable: false,
  }),
};

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
/** Every event a receiver may get, in the document's order. */
export const ALL_WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];
/** The events a subscription may choose (the admin page's boxes, the form, the CLI, the API). */
export const WEBHOOK_EVENT_TYPES = ALL_WEBHOOK_EVENT_TYPES.filter(
  (t) => (WEBHOOK_EVENTS[t] as { subscribable?: false }).subscribable !== false,
) as [WebhookEventType, ...WebhookEventType[]];

export type WebhookEventData = { [T in WebhookEventType]: z.infer<(typeof WEBHOOK_EVENTS)[T]["data"]> };

/** What a subscriber may choose, in words for the admin page. */
export const EVENT_DESCRIPTIONS = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((t) => [t, WEBHOOK_EVENTS[t].description]),
) as Record<WebhookEventType, string>;

/** The body a subscriber receives for `type`: the Standard Webhooks envelope around its data. */
export function envelopeOf(type: WebhookEventType) {
  return z
    .object({
      type: z.literal(type),
      timestamp: when.meta({ description: "When the event was recorded (ISO 8601)." }),
      data: WEBHOOK_EVENTS[type].data,
    })
    .meta({ description: `Sent when ${WEBHOOK_EVENTS[type].description}.` });
}

/** Whether a subscription may choose `x`. */
export function isEventType(x: string): x is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(x);
}
