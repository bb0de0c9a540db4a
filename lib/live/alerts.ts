import type { Database } from "@/db/client";
import type { LiveCard, LiveSession } from "@/db/queries/live";
import { getSetting } from "@/db/queries/settings";
import { anySubscriber } from "@/db/queries/webhooks";
import { publicOrigin } from "@/lib/net/public-url";
import { emitInSavepoint, type Transaction } from "@/lib/webhooks/emit";
import type { WebhookEventData } from "@/lib/webhooks/events";
import { checkedBeforeWords, timeCode } from "./view";

/*
 * The live desk's webhooks, raised in the transaction that stores the cards (the outbox: an alert
 * commits with its card or not at all): `live.claim_flagged` for a card scoring at or above the
 * admin's threshold (setting `live_flag_threshold`, /admin), `live.claim_matched` for a card that
 * matched an earlier check. Only a claim's first card raises them: a repeat is the same claim, and
 * each event's key is the card's id, so a card is announced once whatever retries.
 */

type LiveClaim = WebhookEventData["live.claim_flagged"];

function claimData(session: LiveSession, card: LiveCard): LiveClaim {
  const origin = publicOrigin();
  return {
    session: { id: session.id, title: session.title, url: origin ? `${origin}/live/${session.id}` : null },
    card: {
      id: card.id,
      lineId: card.lineId,
      speaker: card.speaker,
      sentence: card.sentence,
      atMs: card.atMs,
      timeCode: timeCode(card.atMs),
      score: card.score,
    },
    match: card.match
      ? {
          claim: card.match.claim,
          rating: card.match.rating,
          publisher: card.match.publisher,
          url: card.match.url,
          similarity: card.match.similarity,
          checkedBefore: checkedBeforeWords(card.match)!,
        }
      : null,
  };
}

/** Raises the events for cards just stored, inside the storing transaction (savepoints: never breaks the push). */
export async function announceCards(tx: Database, session: LiveSession, cards: readonly LiveCard[]): Promise<void> {
  // An unread line (script.ts) is no claim yet: nothing to alert on until someone reads it.
  const first = cards.filter((c) => !c.groupOf && !c.unreadable);
  if (!first.length) return;
  // The common case, nobody subscribed: one indexed read per push.
  if (!(await anySubscriber(tx, ["live.claim_flagged", "live.claim_matched"]))) return;
  const threshold = await getSetting(tx, "live_flag_threshold");
  for (const card of first) {
    const data = claimData(session, card);
    if (card.score >= threshold) await emitInSavepoint(tx as unknown as Transaction, "live.claim_flagged", data);
    if (card.match) await emitInSavepoint(tx as unknown as Transaction, "live.claim_matched", data);
  }
}
