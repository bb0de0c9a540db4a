import type { Database } from "@/db/client";
import { getVersion, type FactCheckRow } from "@/db/queries/fact-checks";
import { publicOrigin } from "@/lib/net/public-url";
import { emitInSavepoint, type Transaction } from "@/lib/webhooks/emit";
import type { WebhookEventData } from "@/lib/webhooks/events";
import type { PublicationEvent } from "./workflow";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Tells subscribed systems (webhooks) that a version went public. Called inside the transaction
 * that publishes it, so the event commits with the publication or not at all; a payload the
 * contract refuses is logged and never undoes the publication.
 */
export async function announcePublication(
  tx: Tx,
  event: PublicationEvent,
  fc: FactCheckRow,
  version: number,
  publishedAt: Date,
): Promise<void> {
  const v = await getVersion(tx, fc.id, version);
  if (!v) throw new Error(`fact-check ${fc.id} has no version ${version}`);
  const origin = publicOrigin();
  const factCheck = {
    id: fc.id,
    slug: fc.slug,
    url: origin ? `${origin}/fact-checks/${fc.slug}` : null,
    version,
    claim: { text: v.claim, speaker: v.claimant, appearanceUrl: v.appearanceUrl },
    rating: { productLabel: v.rating, textualRating: v.textualRating },
    debateId: fc.debateId,
    comparisonId: fc.comparisonId,
    publishedAt: publishedAt.toISOString(),
  };
  if (event === "fact_check.published") {
    const data: WebhookEventData["fact_check.published"] = { factCheck };
    await emitInSavepoint(tx as unknown as Transaction, event, data);
  } else {
    const data: WebhookEventData["fact_check.corrected"] = {
      factCheck,
      correction: { note: v.correctionNote ?? "", correctedAt: v.createdAt.toISOString() },
    };
    await emitInSavepoint(tx as unknown as Transaction, event, data);
  }
}
