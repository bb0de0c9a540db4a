import { and, desc, eq, gt, gte, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "../client";
import { anyUuid, chunks, MAX_ROWS_PER_STATEMENT } from "../bulk";
import * as s from "../schema";

/*
 * The live desk's storage: sessions, the lines they received (once per line id), the cards on the
 * board and what the desk did with them. Every change to a card takes the session's next revision
 * (live_sessions.rev) inside the transaction that holds the session's row lock, so revisions are
 * committed in order and a board that read up to revision n misses nothing by asking for > n.
 */

export type LiveSession = typeof s.liveSessions.$inferSelect;
export type LiveLine = typeof s.liveLines.$inferSelect;
export type LiveCard = typeof s.liveCards.$inferSelect;
export type LiveCardAction = typeof s.liveCardActions.$inferSelect;

export async function createLiveSession(
  db: Database,
  input: { title: string; method: string; corpus?: string | null; threshold: number; createdBy?: string | null },
): Promise<LiveSession> {
  const [row] = await db
    .insert(s.liveSessions)
    .values({
      title: input.title,
      method: input.method,
      corpus: input.corpus ?? null,
      threshold: input.threshold,
      createdBy: input.createdBy ?? null,
    })
    .returning();
  return row!;
}

export async function getLiveSession(db: Database, id: string): Promise<LiveSession | null> {
  const [row] = await db.select().from(s.liveSessions).where(eq(s.liveSessions.id, id));
  return row ?? null;
}

/** Newest first; `before` pages on by creation time. */
export async function listLiveSessions(db: Database, limit = 50): Promise<LiveSession[]> {
  return db.select().from(s.liveSessions).orderBy(desc(s.liveSessions.createdAt)).limit(limit);
}

/**
 * Closes a session (closing a closed one changes nothing). The update takes the session's row lock,
 * which a push holds while it stores: a push either committed before the close or sees it closed.
 */
export async function closeLiveSession(db: Database, id: string): Promise<LiveSession | null> {
  const [row] = await db.update(s.liveSessions).set({ status: "closed" }).where(eq(s.liveSessions.id, id)).returning();
  return row ?? null;
}

/** Which of these line ids the session already has (one array parameter whatever the count). */
export async function knownLineIds(db: Database, sessionId: string, lineIds: readonly string[]): Promise<Set<string>> {
  if (!lineIds.length) return new Set();
  const rows = await db
    .select({ lineId: s.liveLines.lineId })
    .from(s.liveLines)
    .where(
      and(eq(s.liveLines.sessionId, sessionId), sql`${s.liveLines.lineId} = any(${sql.param([...lineIds])}::text[])`),
    );
  return new Set(rows.map((r) => r.lineId));
}

/** The first card of each claim already on the board with one of these group keys or earlier-check refs. */
export async function groupLeaders(
  db: Database,
  sessionId: string,
  keys: readonly string[],
  refs: readonly string[],
): Promise<LiveCard[]> {
  if (!keys.length && !refs.length) return [];
  return db
    .select()
    .from(s.liveCards)
    .where(
      and(
        eq(s.liveCards.sessionId, sessionId),
        isNull(s.liveCards.groupOf),
        or(
          sql`${s.liveCards.groupKey} = any(${sql.param([...keys])}::text[])`,
          sql`${s.liveCards.match}->>'ref' = any(${sql.param([...refs])}::text[])`,
        ),
      ),
    );
}

export type NewLine = { lineId: string; speaker: string | null; text: string; atMs: number; sentences: number };
export type NewCard = Omit<typeof s.liveCards.$inferInsert, "rev" | "sessionId" | "lineSeq"> & { id: string };

export type StoredBatch = {
  /** Lines stored now, with their sequence numbers and states. */
  lines: LiveLine[];
  /** Line ids another request stored first (a retry racing the original): nothing of theirs is stored again. */
  raced: string[];
  /** Cards added or changed (a first card whose repeats grew), as stored, in revision order. */
  cards: LiveCard[];
  /** The session was closed before this batch took its lock: nothing was stored. */
  closed?: boolean;
  /** The session's revision when this batch took its lock, and after it: its cards have the ones between. */
  revBefore: number;
  revAfter: number;
};

/**
 * Stores a batch of lines and their cards in one transaction, under the session's row lock: a crash
 * stores all of it or none (the sender's retry brings it again), and concurrent pushes to one
 * session take turns. A line id already stored is skipped with its cards. Bounded: lines and cards
 * are inserted in slices of MAX_ROWS_PER_STATEMENT (db/bulk.ts).
 */
export async function storeLiveBatch(
  db: Database,
  sessionId: string,
  lines: readonly NewLine[],
  cards: readonly NewCard[],
  /** Runs in the same transaction with the stored cards (the webhook outbox: alerts commit with their cards). */
  afterStore?: (tx: Database, cards: LiveCard[]) => Promise<void>,
): Promise<StoredBatch> {
  return db.transaction(async (tx) => {
    const [session] = await tx.select().from(s.liveSessions).where(eq(s.liveSessions.id, sessionId)).for("update");
    if (!session) throw new Error(`no live session ${sessionId}`);
    if (session.status !== "open")
      return { lines: [], raced: [], cards: [], closed: true, revBefore: session.rev, revAfter: session.rev };
    const known = await knownLineIds(tx as unknown as Database, sessionId, [...new Set(lines.map((l) => l.lineId))]);
    let seq = session.lineCount;
    let lastAt = session.lastAtMs;
    const seen = new Set<string>();
    const raced: string[] = [];
    const rows: Array<typeof s.liveLines.$inferInsert> = [];
    for (const l of lines) {
      if (known.has(l.lineId) || seen.has(l.lineId)) {
        raced.push(l.lineId);
        continue;
      }
      seen.add(l.lineId);
      const state: s.LiveLineState = !l.text.trim() ? "empty" : l.atMs < lastAt ? "late" : "ok";
      lastAt = Math.max(lastAt, l.atMs);
      rows.push({ sessionId, lineId: l.lineId, seq: ++seq, speaker: l.speaker, text: l.text, atMs: l.atMs, state });
    }
    const seqOf = new Map(rows.map((r) => [r.lineId, r.seq]));
    const kept = cards.filter((c) => seqOf.has(c.lineId));
    const cardCount = new Map<string, number>();
    for (const c of kept) cardCount.set(c.lineId, (cardCount.get(c.lineId) ?? 0) + 1);
    const sentences = new Map(lines.map((l) => [l.lineId, l.sentences]));
    for (const r of rows) {
      r.sentences = sentences.get(r.lineId) ?? 0;
      r.cards = cardCount.get(r.lineId) ?? 0;
    }
    const storedLines: LiveLine[] = [];
    for (const slice of chunks(rows)) storedLines.push(...(await tx.insert(s.liveLines).values(slice).returning()));

    // Repeats: a card whose first card was stored earlier raises that card's count (and revision).
    const newIds = new Set(kept.map((c) => c.id));
    const bumps = new Map<string, number>();
    for (const c of kept) if (c.groupOf) bumps.set(c.groupOf, (bumps.get(c.groupOf) ?? 0) + 1);
    let rev = session.rev;
    const withRev = kept.map((c) => ({ ...c, sessionId, lineSeq: seqOf.get(c.lineId)!, rev: ++rev }));
    // A first card stored in this same batch counts its repeats before it is inserted.
    for (const c of withRev) if (bumps.has(c.id)) c.repeats = (c.repeats ?? 1) + bumps.get(c.id)!;
    const storedCards: LiveCard[] = [];
    for (const slice of chunks(withRev)) storedCards.push(...(await tx.insert(s.liveCards).values(slice).returning()));
    const older = [...bumps].filter(([id]) => !newIds.has(id));
    // One statement per slice, not one per card (unnest of two typed arrays: two parameters whatever
    // the slice's size; sliced anyway to the statement bound). Each card takes the next revision in order.
    for (const slice of chunks(older)) {
      const base = rev;
      const changed = await tx.execute<{ id: string }>(sql`
        update live_cards c set repeats = c.repeats + u.n, rev = ${base}::bigint + u.i
        from unnest(${sql.param(slice.map(([id]) => id))}::uuid[], ${sql.param(slice.map(([, n]) => n))}::int[])
          with ordinality as u(id, n, i)
        where c.id = u.id and c.session_id = ${sessionId}
        returning c.id`);
      rev += slice.length;
      if (changed.rows.length)
        storedCards.push(
          ...(
            await cardsByIds(
              tx as unknown as Database,
              sessionId,
              changed.rows.map((r) => r.id),
            )
          ).sort((a, b) => a.rev - b.rev),
        );
    }
    await tx
      .update(s.liveSessions)
      .set({ lineCount: seq, rev, lastAtMs: lastAt })
      .where(eq(s.liveSessions.id, sessionId));
    if (afterStore)
      await afterStore(
        tx as unknown as Database,
        storedCards.filter((c) => newIds.has(c.id)),
      );
    return { lines: storedLines, raced, cards: storedCards, revBefore: session.rev, revAfter: rev };
  });
}

/** Cards changed after revision `after`, in revision order, at most `limit` (the board's resume). */
export async function cardsAfter(db: Database, sessionId: string, after: number, limit = 500): Promise<LiveCard[]> {
  return db
    .select()
    .from(s.liveCards)
    .where(and(eq(s.liveCards.sessionId, sessionId), gt(s.liveCards.rev, after)))
    .orderBy(s.liveCards.rev)
    .limit(limit);
}

/** The board: newest time code first (a late line's cards take their place by time, not arrival). */
export async function boardCards(
  db: Database,
  sessionId: string,
  opts: { limit?: number; beforeAtMs?: number } = {},
): Promise<LiveCard[]> {
  return db
    .select()
    .from(s.liveCards)
    .where(
      and(
        eq(s.liveCards.sessionId, sessionId),
        opts.beforeAtMs !== undefined ? lt(s.liveCards.atMs, opts.beforeAtMs) : undefined,
      ),
    )
    .orderBy(desc(s.liveCards.atMs), desc(s.liveCards.lineSeq), desc(s.liveCards.sentenceIndex))
    .limit(opts.limit ?? 200);
}

export async function getLiveCard(db: Database, sessionId: string, cardId: string): Promise<LiveCard | null> {
  const [row] = await db
    .select()
    .from(s.liveCards)
    .where(and(eq(s.liveCards.sessionId, sessionId), eq(s.liveCards.id, cardId)));
  return row ?? null;
}

/** The lines in order of arrival (the transcript), at most `limit` after sequence `after`. */
export async function liveLines(db: Database, sessionId: string, after = 0, limit = 500): Promise<LiveLine[]> {
  return db
    .select()
    .from(s.liveLines)
    .where(and(eq(s.liveLines.sessionId, sessionId), gt(s.liveLines.seq, after)))
    .orderBy(s.liveLines.seq)
    .limit(limit);
}

/**
 * Records an action on a card and applies it (state, debate, fact-check) with the session's next
 * revision, so every board shows it. Returns the card as changed.
 */
export async function actOnCard(
  db: Database,
  sessionId: string,
  cardId: string,
  action: {
    action: string;
    state: s.LiveCardState;
    userId: string | null;
    detail?: Record<string, unknown>;
    debateId?: string;
    factCheckId?: string;
  },
): Promise<LiveCard | null> {
  return db.transaction(async (tx) => {
    const [exists] = await tx
      .select({ id: s.liveCards.id })
      .from(s.liveCards)
      .where(and(eq(s.liveCards.id, cardId), eq(s.liveCards.sessionId, sessionId)));
    if (!exists) return null;
    // The session's row lock orders this change's revision with every other change to the board.
    const [session] = await tx
      .update(s.liveSessions)
      .set({ rev: sql`${s.liveSessions.rev} + 1` })
      .where(eq(s.liveSessions.id, sessionId))
      .returning({ rev: s.liveSessions.rev });
    if (!session) return null;
    const [card] = await tx
      .update(s.liveCards)
      .set({
        state: action.state,
        rev: session.rev,
        ...(action.debateId ? { debateId: action.debateId } : {}),
        ...(action.factCheckId ? { factCheckId: action.factCheckId } : {}),
      })
      .where(and(eq(s.liveCards.id, cardId), eq(s.liveCards.sessionId, sessionId)))
      .returning();
    if (!card) return null;
    await tx
      .insert(s.liveCardActions)
      .values({ cardId, action: action.action, detail: action.detail ?? null, userId: action.userId });
    return card;
  });
}

/** What was done with these cards, oldest first (one array parameter). */
export async function cardActions(db: Database, cardIds: readonly string[]): Promise<LiveCardAction[]> {
  if (!cardIds.length) return [];
  const out: LiveCardAction[] = [];
  // Bounded like every list: slices of MAX_ROWS_PER_STATEMENT ids.
  for (const slice of chunks(cardIds, MAX_ROWS_PER_STATEMENT))
    out.push(
      ...(await db
        .select()
        .from(s.liveCardActions)
        .where(anyUuid(s.liveCardActions.cardId, slice))
        .orderBy(s.liveCardActions.createdAt, s.liveCardActions.id)),
    );
  return out;
}

/** Final verdict labels and statuses of the debates started from cards. */
export async function cardDebates(
  db: Database,
  debateIds: readonly string[],
): Promise<Map<string, { status: string; label: string | null; protocol: string }>> {
  const out = new Map<string, { status: string; label: string | null; protocol: string }>();
  for (const slice of chunks([...new Set(debateIds)])) {
    const rows = await db
      .select({ id: s.debates.id, status: s.debates.status, label: s.verdicts.label, protocol: s.debates.protocol })
      .from(s.debates)
      .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
      .where(anyUuid(s.debates.id, slice));
    for (const r of rows) out.set(r.id, { status: r.status, label: r.label, protocol: r.protocol });
  }
  return out;
}

/** The session's latest first cards (repeats are looked for among them, nearly-same wording included). */
export async function recentLeaders(db: Database, sessionId: string, limit = 1000): Promise<LiveCard[]> {
  return db
    .select()
    .from(s.liveCards)
    .where(and(eq(s.liveCards.sessionId, sessionId), isNull(s.liveCards.groupOf)))
    .orderBy(desc(s.liveCards.rev))
    .limit(limit);
}

/**
 * The session's first cards changed after revision `after`, newest first, at most `limit`: what a
 * process that remembers first cards up to `after` has missed (lib/live/leaders.ts).
 */
export async function leadersAfter(
  db: Database,
  sessionId: string,
  after: number,
  limit: number,
): Promise<Array<Pick<LiveCard, "id" | "groupKey" | "match" | "rev">>> {
  return db
    .select({ id: s.liveCards.id, groupKey: s.liveCards.groupKey, match: s.liveCards.match, rev: s.liveCards.rev })
    .from(s.liveCards)
    .where(and(eq(s.liveCards.sessionId, sessionId), isNull(s.liveCards.groupOf), gt(s.liveCards.rev, after)))
    .orderBy(desc(s.liveCards.rev))
    .limit(limit);
}

/** These cards of the session (slices of MAX_ROWS_PER_STATEMENT ids). */
export async function cardsByIds(db: Database, sessionId: string, ids: readonly string[]): Promise<LiveCard[]> {
  const out: LiveCard[] = [];
  for (const slice of chunks(ids))
    out.push(
      ...(await db
        .select()
        .from(s.liveCards)
        .where(and(eq(s.liveCards.sessionId, sessionId), anyUuid(s.liveCards.id, slice)))),
    );
  return out;
}

/** The cards of the lines with sequence numbers fromSeq..toSeq, in transcript order (the archive reads a page of lines at a time). */
export async function cardsOfLines(
  db: Database,
  sessionId: string,
  fromSeq: number,
  toSeq: number,
): Promise<LiveCard[]> {
  return db
    .select()
    .from(s.liveCards)
    .where(
      and(eq(s.liveCards.sessionId, sessionId), gte(s.liveCards.lineSeq, fromSeq), lte(s.liveCards.lineSeq, toSeq)),
    )
    .orderBy(s.liveCards.lineSeq, s.liveCards.sentenceIndex);
}

export type LiveCardActionWithWho = LiveCardAction & { userName: string | null; userEmail: string | null };

/** What was done with these cards, oldest first, with who did it (slices of MAX_ROWS_PER_STATEMENT ids). */
export async function cardActionsWithWho(db: Database, cardIds: readonly string[]): Promise<LiveCardActionWithWho[]> {
  const out: LiveCardActionWithWho[] = [];
  for (const slice of chunks(cardIds, MAX_ROWS_PER_STATEMENT)) {
    const rows = await db
      .select({ a: s.liveCardActions, userName: s.users.name, userEmail: s.users.email })
      .from(s.liveCardActions)
      .leftJoin(s.users, eq(s.users.id, s.liveCardActions.userId))
      .where(anyUuid(s.liveCardActions.cardId, slice))
      .orderBy(s.liveCardActions.createdAt, s.liveCardActions.id);
    out.push(...rows.map((r) => ({ ...r.a, userName: r.userName, userEmail: r.userEmail })));
  }
  return out;
}
