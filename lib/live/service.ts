import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import {
  getLiveSession,
  groupLeaders,
  knownLineIds,
  recentLeaders,
  storeLiveBatch,
  type LiveCard,
  type LiveLine,
  type NewCard,
  type NewLine,
} from "@/db/queries/live";
import type { LiveCardMatch } from "@/db/schema";
import { scorerFor, type CheckworthyScorer, type Sentence } from "@/lib/checkworthy";
import { matchClaimReport, type MatchDeps } from "@/lib/matching/match";
import { processGlobal } from "@/lib/process/globals";
import { splitSentences } from "@/lib/text/sentences";
import { announceCards } from "./alerts";
import { publishBoard } from "./bus";
import { CLOSED_MESSAGE } from "./close";
import { groupKeyOf, sameGroup } from "./groups";
import { unreadableCards, unreadableScript } from "./script";

/*
 * The live desk's one service for incoming lines, whatever sends them (the push API, the replay
 * command, the benchmark): split each line into sentences with its speaker, score the batch's
 * sentences in one call to the offline check-worthiness scorer, match those at or above the
 * session's threshold against earlier checks (the claim matching the debate form uses), group
 * repeats of a claim, store lines and cards in one transaction, and tell every board.
 */

export type IncomingLine = { lineId: string; speaker?: string | null; text: string; atMs: number };

export type LiveDeps = {
  db: Database;
  /** Default: the shipped offline scorer. */
  scorer?: CheckworthyScorer;
  /** Passed to claim matching (tests name an embedder; the default is the instance's). */
  match?: Omit<MatchDeps, "db">;
};

export type LinesOutcome = {
  /** Lines stored now, in order of arrival. */
  accepted: Array<Pick<LiveLine, "lineId" | "seq" | "state" | "sentences" | "cards">>;
  /** Line ids the session already had: nothing was done with them again. */
  duplicates: string[];
  /** Cards added or changed, in revision order. */
  cards: LiveCard[];
  /** Milliseconds from the batch's arrival to its cards being published. */
  elapsedMs: number;
};

export class LiveError extends Error {
  constructor(
    message: string,
    public readonly status: 400 | 404 | 409,
    public readonly field?: string,
  ) {
    super(message);
    this.name = "LiveError";
  }
}

/** At most this many lines in one push (the API's bound too). */
export const MAX_LINES_PER_BATCH = 200;
/** A line longer than this is refused: a caption line is a sentence or two, not a document. */
export const MAX_LINE_CHARS = 5_000;

/** A session's batches run one after another in this process, so repeats and revisions see each other. */
function inTurn<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
  const chains = processGlobal("live-chains", () => new Map());
  const before = chains.get(sessionId) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  chains.set(sessionId, tail);
  void tail.then(() => {
    if (chains.get(sessionId) === tail) chains.delete(sessionId);
  });
  return run;
}

type Candidate = { line: IncomingLine; index: number; sentence: Sentence; score: number; reason: string };

export async function receiveLines(
  deps: LiveDeps,
  sessionId: string,
  lines: readonly IncomingLine[],
): Promise<LinesOutcome> {
  if (lines.length > MAX_LINES_PER_BATCH)
    throw new LiveError(
      `Send at most ${MAX_LINES_PER_BATCH} lines at a time; this batch had ${lines.length}.`,
      400,
      "lines",
    );
  for (const [i, l] of lines.entries())
    if (l.text.length > MAX_LINE_CHARS)
      throw new LiveError(
        `Line ${l.lineId} has ${l.text.length} characters; a line may have at most ${MAX_LINE_CHARS}: split it.`,
        400,
        `lines.${i}.text`,
      );
  return inTurn(sessionId, () => receiveInTurn(deps, sessionId, lines));
}

async function receiveInTurn(deps: LiveDeps, sessionId: string, lines: readonly IncomingLine[]): Promise<LinesOutcome> {
  const t0 = performance.now();
  const { db } = deps;
  const session = await getLiveSession(db, sessionId);
  if (!session) throw new LiveError("There is no live session with this id.", 404);
  if (session.status !== "open") throw new LiveError(CLOSED_MESSAGE, 409);

  // Retries first: a line id the session has is answered as a duplicate and costs nothing more.
  const known = await knownLineIds(
    db,
    sessionId,
    lines.map((l) => l.lineId),
  );
  const seen = new Set<string>();
  const fresh: IncomingLine[] = [];
  const duplicates: string[] = [];
  for (const l of lines) {
    if (known.has(l.lineId) || seen.has(l.lineId)) duplicates.push(l.lineId);
    else fresh.push(l);
    seen.add(l.lineId);
  }

  // Sentences of every fresh line, the speaker kept; one scorer call for the whole batch.
  const perLine = fresh.map((line) =>
    splitSentences(line.text.replace(/\s+/g, " ").trim(), { ellipsisEndsSentence: false })
      .map((s) => s.text)
      .filter((t) => /[\p{L}\p{N}]/u.test(t)),
  );
  // A line in a script the scorer cannot read is not scored: it becomes one card saying so (script.ts).
  const scripts = fresh.map((l) => unreadableScript(l.text));
  const sentences: Array<{ line: IncomingLine; index: number; sentence: Sentence }> = [];
  fresh.forEach((line, b) =>
    (scripts[b] ? [] : perLine[b]!).forEach((text, index) =>
      sentences.push({
        line,
        index,
        sentence: { index: sentences.length, text, speaker: line.speaker ?? null, block: b },
      }),
    ),
  );
  const scorer = deps.scorer ?? scorerFor("offline");
  const scored = await scorer.score(sentences.map((s) => s.sentence));
  const candidates: Candidate[] = sentences
    .map((s, i) => ({ ...s, score: scored[i]!.score, reason: scored[i]!.reason }))
    .filter((c) => c.score >= session.threshold);

  const cards = [
    ...(await cardsFor(deps, sessionId, candidates)),
    ...unreadableCards(fresh.flatMap((line, b) => (scripts[b] ? [{ line, script: scripts[b] }] : []))),
  ];
  const newLines: NewLine[] = fresh.map((l, b) => ({
    lineId: l.lineId,
    speaker: l.speaker ?? null,
    text: l.text,
    atMs: l.atMs,
    sentences: perLine[b]!.length,
  }));
  const stored = await storeLiveBatch(db, sessionId, newLines, cards, (tx, added) => announceCards(tx, session, added));
  if (stored.closed) throw new LiveError(CLOSED_MESSAGE, 409);
  if (stored.cards.length) await publishBoard(sessionId);
  return {
    accepted: stored.lines.map((l) => ({
      lineId: l.lineId,
      seq: l.seq,
      state: l.state,
      sentences: l.sentences,
      cards: l.cards,
    })),
    duplicates: [...duplicates, ...stored.raced],
    cards: stored.cards,
    elapsedMs: performance.now() - t0,
  };
}

function toMatch(m: Awaited<ReturnType<typeof matchClaimReport>>["matches"][number]): LiveCardMatch {
  return {
    source: m.source,
    ref: m.ref,
    claim: m.claim,
    rating: m.rating,
    scale: m.scale,
    publisher: m.publisher,
    url: m.url,
    claimDate: m.claimDate,
    reviewDate: m.reviewDate,
    similarity: m.similarity,
    sameText: m.sameText,
  };
}

/**
 * Cards for the check-worthy sentences: a repeat of a claim already on the board (same words once
 * normalised, or nearly) joins that claim's group and takes its earlier check without matching
 * again; any other sentence is matched, and joins a group whose first card matched the same check.
 */
async function cardsFor(deps: LiveDeps, sessionId: string, candidates: readonly Candidate[]): Promise<NewCard[]> {
  if (!candidates.length) return [];
  const keys = candidates.map((c) => groupKeyOf(c.sentence.text));
  // Exact repeats of any earlier claim, and near repeats of the latest 1,000 (a bound on memory and time).
  const [exact, recent] = await Promise.all([
    groupLeaders(deps.db, sessionId, [...new Set(keys)], []),
    recentLeaders(deps.db, sessionId),
  ]);
  type Leader = { id: string; key: string; match: LiveCardMatch | null };
  const byId = new Map([...exact, ...recent].map((l) => [l.id, l]));
  const known: Leader[] = [...byId.values()].map((l) => ({ id: l.id, key: l.groupKey, match: l.match }));
  const out: NewCard[] = [];
  for (const [i, c] of candidates.entries()) {
    const key = keys[i]!;
    let leader = known.find((l) => sameGroup(l.key, key));
    let match: LiveCardMatch | null = leader?.match ?? null;
    if (!leader) {
      const report = await matchClaimReport({ db: deps.db, ...deps.match }, c.sentence.text, { limit: 1 });
      match = report.matches[0] ? toMatch(report.matches[0]) : null;
      if (match) {
        const ref = match.ref;
        leader =
          known.find((l) => l.match?.ref === ref) ??
          (await groupLeaders(deps.db, sessionId, [], [ref])).map((l) => ({
            id: l.id,
            key: l.groupKey,
            match: l.match,
          }))[0];
      }
    }
    const id = randomUUID();
    out.push({
      id,
      lineId: c.line.lineId,
      sentenceIndex: c.index,
      speaker: c.line.speaker ?? null,
      sentence: c.sentence.text,
      atMs: c.line.atMs,
      score: c.score,
      reason: c.reason,
      match,
      groupKey: key,
      groupOf: leader?.id ?? null,
    });
    if (!leader) known.push({ id, key, match });
  }
  return out;
}
