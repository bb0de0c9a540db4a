import type { Database } from "@/db/client";
import {
  boardCards,
  cardDebates,
  cardsAfter,
  getLiveSession,
  type LiveCard,
  type LiveSession,
} from "@/db/queries/live";
import { PRODUCT_WORDS, productLabelOf } from "@/lib/debate/methods";
import { checkedBeforeWords, timeCode, type LiveCardView } from "./view";

/** Cards as readers get them, each with its debate's status and verdict when one was started. */
export async function cardViews(db: Database, cards: readonly LiveCard[]): Promise<LiveCardView[]> {
  const debates = await cardDebates(
    db,
    cards.flatMap((c) => (c.debateId ? [c.debateId] : [])),
  );
  return cards.map((c) => {
    const d = c.debateId ? debates.get(c.debateId) : undefined;
    const product = d?.label ? productLabelOf(d.protocol, d.label) : null;
    return {
      id: c.id,
      rev: c.rev,
      lineId: c.lineId,
      lineSeq: c.lineSeq,
      sentenceIndex: c.sentenceIndex,
      speaker: c.speaker,
      sentence: c.sentence,
      atMs: c.atMs,
      timeCode: timeCode(c.atMs),
      score: c.score,
      unreadable: c.unreadable,
      reason: c.reason,
      match: c.match,
      checkedBefore: checkedBeforeWords(c.match),
      groupOf: c.groupOf,
      repeats: c.repeats,
      state: c.state,
      debate: c.debateId
        ? {
            id: c.debateId,
            status: d?.status ?? "missing",
            // The product's scale in words (as every page says a verdict), else the method's own label.
            verdict: product ? PRODUCT_WORDS[product] : (d?.label ?? null),
          }
        : null,
      factCheckId: c.factCheckId,
    };
  });
}

export type SessionView = {
  id: string;
  title: string;
  method: string;
  corpus: string | null;
  threshold: number;
  status: string;
  lines: number;
  rev: number;
  createdAt: string;
};

export function sessionView(s: LiveSession): SessionView {
  return {
    id: s.id,
    title: s.title,
    method: s.method,
    corpus: s.corpus,
    threshold: s.threshold,
    status: s.status,
    lines: s.lineCount,
    rev: s.rev,
    createdAt: s.createdAt.toISOString(),
  };
}

/** The board now: the session and its newest cards (newest time code first). */
export async function readBoard(
  db: Database,
  id: string,
  limit = 200,
): Promise<{ session: SessionView; cards: LiveCardView[] } | null> {
  const session = await getLiveSession(db, id);
  if (!session) return null;
  return { session: sessionView(session), cards: await cardViews(db, await boardCards(db, id, { limit })) };
}

/** Cards changed after revision `after`, as views, in revision order. */
export async function changedCards(db: Database, id: string, after: number, limit = 500): Promise<LiveCardView[]> {
  return cardViews(db, await cardsAfter(db, id, after, limit));
}
