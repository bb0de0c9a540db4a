import type { DbHandle } from "@/db/client";
import { actOnCard, getLiveCard, getLiveSession } from "@/db/queries/live";
import { demand, type Principal } from "@/lib/auth/policy";
import { PRODUCT_WORDS, findMethod, productLabelOf } from "@/lib/debate/methods";
import type { StartDebateInput } from "@/lib/debate/start";
import { startDebate } from "@/lib/debate/start-service";
import { createFactCheck } from "@/lib/fact-checks/workflow";
import { cardDebates } from "@/db/queries/live";
import { cardViews } from "./board";
import { publishBoard } from "./bus";
import { LiveError } from "./service";
import { timeCode, type LiveCardView } from "./view";

/*
 * What the desk does with a card, one function per action, each stored with who and when
 * (live_card_actions) and shown on every board. Starting a debate goes through the one start
 * service (lib/debate/start-service.ts): the same permission, checks, matching, rate limit and queue
 * as the debate form.
 */

export const CARD_ACTIONS = ["debate", "attach", "dismiss", "draft"] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

async function load(handle: DbHandle, sessionId: string, cardId: string) {
  const session = await getLiveSession(handle.db, sessionId);
  if (!session) throw new LiveError("There is no live session with this id.", 404);
  const card = await getLiveCard(handle.db, sessionId, cardId);
  if (!card) throw new LiveError("This session has no card with this id; reload the board.", 404);
  return { session, card };
}

async function done(handle: DbHandle, sessionId: string, card: Awaited<ReturnType<typeof actOnCard>>) {
  if (!card) throw new LiveError("This session has no card with this id; reload the board.", 404);
  await publishBoard(sessionId);
  return (await cardViews(handle.db, [card]))[0]!;
}

export async function actOnLiveCard(
  handle: DbHandle,
  principal: Principal | null,
  sessionId: string,
  cardId: string,
  action: CardAction,
): Promise<LiveCardView> {
  const { db } = handle;
  switch (action) {
    case "debate": {
      const me = demand(principal, "debate:start");
      const { session, card } = await load(handle, sessionId, cardId);
      if (card.debateId)
        throw new LiveError("A debate was already started on this card; it shows its verdict when done.", 409);
      const def = findMethod(session.method);
      const input: StartDebateInput = {
        protocol: session.method,
        claim: card.sentence,
        evidence: session.corpus
          ? { mode: "retrieved", corpus: session.corpus, k: 20 }
          : def?.corpusOptional
            ? { mode: "none" }
            : { mode: "retrieved", corpus: "", k: 20 },
        config: {},
        models: {},
      };
      // A card that matched an earlier check brings it along as evidence, labelled as such.
      const outcome = await startDebate(principal, input, {
        handle,
        onMatch: card.match ? "attach" : "debate-anyway",
      });
      if (outcome.kind !== "started") throw new LiveError("The debate could not start; try again.", 409);
      const changed = await actOnCard(db, sessionId, cardId, {
        action: "debate",
        state: "debating",
        userId: me.id,
        debateId: outcome.id,
        detail: { method: session.method },
      });
      return done(handle, sessionId, changed);
    }
    case "attach": {
      const me = demand(principal, "debate:start");
      const { card } = await load(handle, sessionId, cardId);
      if (!card.match) throw new LiveError("This card matched no earlier check; start a debate instead.", 409);
      const changed = await actOnCard(db, sessionId, cardId, {
        action: "attach",
        state: "attached",
        userId: me.id,
        detail: { source: card.match.source, ref: card.match.ref, url: card.match.url },
      });
      return done(handle, sessionId, changed);
    }
    case "dismiss": {
      const me = demand(principal, "debate:start");
      await load(handle, sessionId, cardId);
      return done(
        handle,
        sessionId,
        await actOnCard(db, sessionId, cardId, { action: "dismiss", state: "dismissed", userId: me.id }),
      );
    }
    case "draft": {
      const me = demand(principal, "fact-check:write");
      const { session, card } = await load(handle, sessionId, cardId);
      if (card.factCheckId) throw new LiveError("This card was already sent to an editor.", 409);
      // A fact-check is written from a debate's evidence and verdict (lib/fact-checks/workflow.ts).
      const debate = card.debateId ? (await cardDebates(db, [card.debateId])).get(card.debateId) : undefined;
      if (!card.debateId || debate?.status !== "completed" || !debate.label)
        throw new LiveError(
          "Start a debate on this card first: a fact-check draft is written from a finished debate's evidence and verdict.",
          409,
        );
      const rating = productLabelOf(session.method, debate.label) ?? "HALF-TRUE";
      const at = timeCode(card.atMs);
      const fc = await createFactCheck(
        db,
        principal,
        { debateId: card.debateId },
        {
          claim: card.sentence,
          rating,
          textualRating: PRODUCT_WORDS[rating],
          explanation: `Said${card.speaker ? ` by ${card.speaker}` : ""} at ${at} during “${session.title}”. Draft from the live desk: check the debate's evidence before publishing.`,
          sources: [],
          claimant: card.speaker,
          claimantKind: "Person",
          whereSaid: `${session.title}, at ${at}`,
          appearanceUrl: null,
          claimDate: card.createdAt.toISOString().slice(0, 10),
          showDebateLink: false,
          correctionNote: null,
        },
      );
      const changed = await actOnCard(db, sessionId, cardId, {
        action: "draft",
        state: "drafted",
        userId: me.id,
        factCheckId: fc.id,
        detail: { slug: fc.slug, timeCode: at },
      });
      return done(handle, sessionId, changed);
    }
  }
}
