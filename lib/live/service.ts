import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import {
  getLiveSession,
  knownLineIds,
  storeLiveBatch,
  type LiveCard,
  type LiveLine,
  type NewCard,
  type NewLine,
} from "@/db/queries/live";
import type { LiveCardMatch } from "@/db/schema";
import { embedSentences, scorerFor, SENTENCE_ENCODER, type CheckworthyScorer, type Sentence } from "@/lib/checkworthy";
import { matchClaimsReport, type MatchDeps, type MatchReport } from "@/lib/matching/match";
import { indexEmbedder } from "@/lib/matching/store";
import { processGlobal } from "@/lib/process/globals";
import { splitSentences } from "@/lib/text/sentences";
import { announceCards } from "./alerts";
import { publishBoard } from "./bus";
import { CLOSED_MESSAGE } from "./close";
import { groupKeyOf, parseKey, sameParsed } from "./groups";
import { leaderFor, olderLeaders, recentLeadersOf, rememberStored, type Leader, type SessionLeaders } from "./leaders";
import { unreadableCards, unreadableScript } from "./script";

/*
 * The live desk's one service for incoming lines, whatever sends them (the push API, the replay
 * command, the benchmark): split each line into sentences with its speaker, embed the push's
 * sentences once (the sentence encoder serves both the check-worthiness scorer and, when it is
 * the index's encoder, claim matching), score them in one call, match those at or above the
 * session's threshold against earlier checks in one batched call (the claim matching the debate
 * form uses), group repeats of a claim, store lines and cards in one short transaction, and tell
 * every board. docs/live.md has the measured speed.
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
  /** Where those milliseconds went (`bench live` prints the sums). */
  stagesMs: { read: number; embed: number; score: number; match: number; store: number };
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

/**
 * At most this many lines in one push (the API's bound too): a captioner catching up after an outage
 * sends its backlog at once. Every statement the push makes is bounded by MAX_ROWS_PER_STATEMENT
 * whatever the batch (db/queries/live.ts); the embedding and the matching are batched.
 */
export const MAX_LINES_PER_BATCH = 1000;
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

type Candidate = {
  line: IncomingLine;
  index: number;
  sentence: Sentence;
  score: number;
  reason: string;
  /** The sentence encoder's vector of the sentence, when it is the matching index's encoder too. */
  vector?: number[];
};

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
  // Retries first: a line id the session has is answered as a duplicate and costs nothing more.
  const [session, known] = await Promise.all([
    getLiveSession(db, sessionId),
    knownLineIds(
      db,
      sessionId,
      lines.map((l) => l.lineId),
    ),
  ]);
  if (!session) throw new LiveError("There is no live session with this id.", 404);
  if (session.status !== "open") throw new LiveError(CLOSED_MESSAGE, 409);
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
  const tRead = performance.now();
  const scorer = deps.scorer ?? scorerFor("offline");
  const matchEncoder = indexEmbedder(deps.match ?? {}).id;
  // One encoder call for the push, when the scorer or the matcher reads the sentence encoder's vectors.
  const shareVectors = sentences.length > 0 && (scorer.name === "offline" || matchEncoder === SENTENCE_ENCODER);
  // The session's recent first cards (from memory, or what changed since) while the encoder runs.
  const [vectors, leaders] = await Promise.all([
    shareVectors ? embedSentences(sentences.map((s) => s.sentence.text)) : undefined,
    recentLeadersOf(db, sessionId, session.rev),
  ]);
  const tEmbed = performance.now();
  const scored = await scorer.score(
    sentences.map((s) => s.sentence),
    scorer.name === "offline" ? { embeddings: vectors } : {},
  );
  const candidates: Candidate[] = sentences.flatMap((s, i) =>
    scored[i]!.score >= session.threshold
      ? [
          {
            ...s,
            score: scored[i]!.score,
            reason: scored[i]!.reason,
            vector: matchEncoder === SENTENCE_ENCODER ? vectors?.vectors[i] : undefined,
          },
        ]
      : [],
  );

  const tScore = performance.now();
  const cards = [
    ...(await cardsFor(deps, sessionId, candidates, leaders, matchEncoder)),
    ...unreadableCards(fresh.flatMap((line, b) => (scripts[b] ? [{ line, script: scripts[b] }] : []))),
  ];
  const tMatch = performance.now();
  const newLines: NewLine[] = fresh.map((l, b) => ({
    lineId: l.lineId,
    speaker: l.speaker ?? null,
    text: l.text,
    atMs: l.atMs,
    sentences: perLine[b]!.length,
  }));
  const stored = await storeLiveBatch(db, sessionId, newLines, cards, (tx, added) => announceCards(tx, session, added));
  if (stored.closed) throw new LiveError(CLOSED_MESSAGE, 409);
  rememberStored(leaders, stored);
  if (stored.cards.length) await publishBoard(sessionId);
  const tEnd = performance.now();
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
    elapsedMs: tEnd - t0,
    stagesMs: {
      read: tRead - t0,
      embed: tEmbed - tRead,
      score: tScore - tEmbed,
      match: tMatch - tScore,
      store: tEnd - tMatch,
    },
  };
}

function toMatch(m: MatchReport["matches"][number]): LiveCardMatch {
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
 * again; the other sentences are matched in one batched call, and each joins a group whose first
 * card matched the same check. Database reads: one for exact repeats older than the cached first
 * cards, one for first cards with the matched checks that memory does not have.
 */
async function cardsFor(
  deps: LiveDeps,
  sessionId: string,
  candidates: readonly Candidate[],
  cache: SessionLeaders,
  matchEncoder: string,
): Promise<NewCard[]> {
  if (!candidates.length) return [];
  const keys = candidates.map((c) => groupKeyOf(c.sentence.text));
  const parsed = keys.map(parseKey);
  // Latest first, as the near-repeat search has always read them.
  const recent = [...cache.recent.values()].reverse();
  const recentKeys = new Set(recent.map((l) => l.key));
  const missingKeys = [...new Set(keys)].filter((k) => !recentKeys.has(k));
  const exactOlder = missingKeys.length ? await olderLeaders(deps.db, sessionId, missingKeys, []) : [];

  // Pass 1, in order: each sentence's group by its words, among earlier first cards and the earlier
  // sentences of this push still to be matched (a repeat within the push follows its first saying).
  type Plan = { leader?: Leader; repeatOf?: number; toMatch?: number };
  const plans: Plan[] = [];
  const pending: number[] = [];
  const matchTexts: Candidate[] = [];
  for (const [i, c] of candidates.entries()) {
    const leader = leaderFor([...exactOlder, ...recent], keys[i]!, parsed[i]!);
    if (leader) {
      plans.push({ leader });
      continue;
    }
    const earlier = pending.find((j) => keys[j] === keys[i]) ?? pending.find((j) => sameParsed(parsed[j]!, parsed[i]!));
    if (earlier !== undefined) {
      plans.push({ repeatOf: earlier });
      continue;
    }
    pending.push(i);
    plans.push({ toMatch: matchTexts.length });
    matchTexts.push(c);
  }

  const reports = await matchClaimsReport(
    { db: deps.db, ...deps.match },
    matchTexts.map((c) => ({ text: c.sentence.text, vector: c.vector })),
    { limit: 1, vectorModel: matchEncoder },
  );
  const matches = reports.map((r) => (r.matches[0] ? toMatch(r.matches[0]) : null));
  // First cards with the matched checks: from memory, else one read for all of them.
  const byRef = new Map<string, Leader>();
  for (const l of [...recent].reverse()) if (l.match?.ref && !byRef.has(l.match.ref)) byRef.set(l.match.ref, l);
  const unknownRefs = [...new Set(matches.flatMap((m) => (m && !byRef.has(m.ref) ? [m.ref] : [])))];
  if (unknownRefs.length)
    for (const l of await olderLeaders(deps.db, sessionId, [], unknownRefs))
      if (l.match?.ref && !byRef.has(l.match.ref)) byRef.set(l.match.ref, l);

  // Pass 2, in order: the cards.
  const out: NewCard[] = [];
  const groupOf: Array<string | null> = [];
  const matchOf: Array<LiveCardMatch | null> = [];
  for (const [i, c] of candidates.entries()) {
    const plan = plans[i]!;
    const id = randomUUID();
    let group: string | null = null;
    let match: LiveCardMatch | null = null;
    if (plan.leader) {
      group = plan.leader.id;
      match = plan.leader.match;
    } else if (plan.repeatOf !== undefined) {
      group = groupOf[plan.repeatOf] ?? out[plan.repeatOf]!.id;
      match = matchOf[plan.repeatOf] ?? null;
    } else {
      match = matches[plan.toMatch!] ?? null;
      const leader = match ? byRef.get(match.ref) : undefined;
      if (leader) group = leader.id;
      else if (match) byRef.set(match.ref, { id, key: keys[i]!, parsed: parsed[i]!, match, rev: 0 });
    }
    groupOf.push(group);
    matchOf.push(match);
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
      groupKey: keys[i]!,
      groupOf: group,
    });
  }
  return out;
}
