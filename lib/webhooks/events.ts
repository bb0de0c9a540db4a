import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/db/schema";

/*
 * What each webhook event says. The body every subscriber receives is the envelope the Standard
 * Webhooks specification recommends, `{ type, timestamp, data }`, with `data` as below. These
 * schemas are the contract: the emitter validates against them, so a caller that sends the wrong
 * shape fails where it calls, not at a newsroom's receiver.
 */

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

/** Absolute links need PUBLIC_URL; without it they are null rather than a guess. */
const link = z.url().nullable();
const when = z.iso.datetime({ offset: true });

const verdict = z.object({
  /** The method's own label (TRUE / HALF-TRUE / FALSE, or UNPARSED). */
  label: z.string(),
  /** The label on the product's scale, or null when the method's label does not map (UNPARSED). */
  productLabel: z.string().nullable(),
  confidence: z.number().nullable(),
  reason: z.string().nullable(),
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

export const EVENT_DATA = {
  "debate.finished": debateFinishedData,
  "comparison.finished": comparisonFinishedData,
  "fact_check.published": factCheckPublishedData,
  "fact_check.corrected": factCheckCorrectedData,
} as const satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookEventData = { [T in WebhookEventType]: z.infer<(typeof EVENT_DATA)[T]> };

/**
 * What makes an event happen once: a debate finishes once, a comparison once, each version of a
 * fact-check is published or corrected once. A second emit with the same key records nothing.
 */
export const EVENT_KEY: { [T in WebhookEventType]: (data: WebhookEventData[T]) => string } = {
  "debate.finished": (d) => `debate.finished:${d.debate.id}`,
  "comparison.finished": (d) => `comparison.finished:${d.comparison.id}`,
  "fact_check.published": (d) => `fact_check.published:${d.factCheck.id}:${d.factCheck.version}`,
  "fact_check.corrected": (d) => `fact_check.corrected:${d.factCheck.id}:${d.factCheck.version}`,
};

/** What a subscriber may choose, in words for the admin page. */
export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "debate.finished": "a debate reached its verdict",
  "comparison.finished": "every method of a comparison reached its verdict",
  "fact_check.published": "a fact-check was published",
  "fact_check.corrected": "a published fact-check was corrected",
};

export function isEventType(x: string): x is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(x);
}
