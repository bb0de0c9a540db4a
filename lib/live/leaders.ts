import type { Database } from "@/db/client";
import { groupLeaders, leadersAfter, type LiveCard } from "@/db/queries/live";
import type { LiveCardMatch } from "@/db/schema";
import { processGlobal } from "@/lib/process/globals";
import { parseKey, sameParsed, type ParsedKey } from "./groups";

/*
 * The first cards of a session's claims that a push groups its sentences with, kept in memory
 * between pushes so a push does not read the last thousand cards again. The database stays the
 * truth: the cache remembers the session revision it has read up to, and a push whose session is
 * at a later revision (another server stored lines, or a card was acted on) reads only the first
 * cards changed since. Exact repeats older than the cache are still found, by one query on the
 * group key (db/queries/live.ts groupLeaders).
 *
 * Memory is capped: RECENT_LEADERS first cards per session (the near-repeat window the service has
 * always had), CACHED_SESSIONS sessions per process (the least recently pushed to is dropped and
 * read again from the database if it comes back).
 */

/** Near repeats are looked for among a session's latest first cards, at most this many. */
export const RECENT_LEADERS = 1000;
/** Sessions whose first cards this process keeps; one with lines arriving after that is read again. */
export const CACHED_SESSIONS = 32;

export type Leader = { id: string; key: string; parsed: ParsedKey; match: LiveCardMatch | null; rev: number };

export type SessionLeaders = {
  /** The session revision the cache has read up to. */
  rev: number;
  /** Latest first cards, oldest first, at most RECENT_LEADERS. */
  recent: Map<string, Leader>;
};

const toLeader = (c: Pick<LiveCard, "id" | "groupKey" | "match" | "rev">): Leader => ({
  id: c.id,
  key: c.groupKey,
  parsed: parseKey(c.groupKey),
  match: c.match,
  rev: c.rev,
});

function sessions(): Map<string, SessionLeaders> {
  return processGlobal("live-leaders", () => new Map());
}

function remember(entry: SessionLeaders, leaders: Iterable<Leader>) {
  for (const l of leaders) {
    // Re-inserted at the end: the map's order is the order of the latest change.
    entry.recent.delete(l.id);
    entry.recent.set(l.id, l);
  }
  for (const id of entry.recent.keys()) {
    if (entry.recent.size <= RECENT_LEADERS) break;
    entry.recent.delete(id);
  }
}

/** The session's recent first cards, brought up to `sessionRev` from the database when behind. */
export async function recentLeadersOf(db: Database, sessionId: string, sessionRev: number): Promise<SessionLeaders> {
  const all = sessions();
  let entry = all.get(sessionId);
  all.delete(sessionId);
  if (!entry) entry = { rev: 0, recent: new Map() };
  if (entry.rev < sessionRev) {
    // Newest first from the database, at most RECENT_LEADERS: remembered oldest first.
    const changed = await leadersAfter(db, sessionId, entry.rev, RECENT_LEADERS);
    remember(entry, changed.reverse().map(toLeader));
    entry.rev = sessionRev;
  }
  all.set(sessionId, entry);
  for (const id of all.keys()) {
    if (all.size <= CACHED_SESSIONS) break;
    all.delete(id);
  }
  return entry;
}

/**
 * After a push is stored: its new first cards join the cache, and the cache's revision moves to
 * the push's last one only when nothing else was stored in between (`revBefore` is where the
 * push's revisions started); otherwise the next push reads what it missed.
 */
export function rememberStored(
  entry: SessionLeaders,
  stored: { revBefore: number; revAfter: number; cards: readonly LiveCard[] },
) {
  remember(entry, stored.cards.filter((c) => !c.groupOf).map(toLeader));
  if (entry.rev === stored.revBefore) entry.rev = stored.revAfter;
}

/** The first card a sentence with this group key repeats, among `leaders` (latest first). */
export function leaderFor(leaders: Iterable<Leader>, key: string, parsed: ParsedKey): Leader | undefined {
  let found: Leader | undefined;
  for (const l of leaders) {
    if (l.key === key) return l;
    if (!found && sameParsed(l.parsed, parsed)) found = l;
  }
  return found;
}

/** First cards stored before the cache began that have one of these exact keys or earlier-check refs. */
export async function olderLeaders(
  db: Database,
  sessionId: string,
  keys: readonly string[],
  refs: readonly string[],
): Promise<Leader[]> {
  return (await groupLeaders(db, sessionId, keys, refs)).map(toLeader);
}
