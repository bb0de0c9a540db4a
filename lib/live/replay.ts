import type { TranscriptLine } from "./transcript";
import { MAX_LINES_PER_BATCH, receiveLines, type LiveDeps, type LinesOutcome } from "./service";

/*
 * A transcript pushed through the live service at its own pace (`speed` times real time; Infinity:
 * as fast as the service takes it). Lines due at the same moment go as one batch, as a captioning
 * system sends them; a batch that is late goes at once with whatever else is due by then.
 */

export type ReplayProgress = { sent: number; total: number; cards: number; duplicates: number; lagMs: number };

export type ReplayOptions = {
  speed: number;
  /**
   * After each push: `sentAt` is when it was handed to the service, `spokenAt` when its first line
   * was due by the transcript's clock (the same as sentAt when the replay keeps up; earlier when it
   * falls behind), both performance.now() times.
   */
  onBatch?: (batch: readonly TranscriptLine[], outcome: LinesOutcome, sentAt: number, spokenAt: number) => void;
  onProgress?: (p: ReplayProgress) => void;
  signal?: AbortSignal;
};

/**
 * Lines per push at most: a captioner sends a few at a time, and a card is published when its
 * batch is stored, so a replay running behind (or "as fast as possible") still shows cards as it goes.
 */
const REPLAY_BATCH = Math.min(25, MAX_LINES_PER_BATCH);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function replayTranscript(
  deps: LiveDeps,
  sessionId: string,
  lines: readonly TranscriptLine[],
  opts: ReplayOptions,
): Promise<ReplayProgress> {
  if (!(opts.speed > 0)) throw new Error(`--speed must be above 0, got ${opts.speed}`);
  const first = lines[0]?.atMs ?? 0;
  const t0 = performance.now();
  const due = (l: TranscriptLine) => (Number.isFinite(opts.speed) ? (l.atMs - first) / opts.speed : 0);
  const p: ReplayProgress = { sent: 0, total: lines.length, cards: 0, duplicates: 0, lagMs: 0 };
  let i = 0;
  while (i < lines.length) {
    if (opts.signal?.aborted) break;
    const wait = due(lines[i]!) - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
    const now = performance.now() - t0;
    const batch: TranscriptLine[] = [];
    // The line waited for goes even when the timer fired a fraction of a millisecond early.
    while (i < lines.length && batch.length < REPLAY_BATCH && (!batch.length || due(lines[i]!) <= now))
      batch.push(lines[i++]!);
    const sentAt = performance.now();
    const outcome = await receiveLines(deps, sessionId, batch);
    p.sent += batch.length;
    p.cards += outcome.cards.length;
    p.duplicates += outcome.duplicates.length;
    p.lagMs = Math.max(0, performance.now() - t0 - due(batch.at(-1)!));
    opts.onBatch?.(batch, outcome, sentAt, Math.min(sentAt, t0 + due(batch[0]!)));
    opts.onProgress?.({ ...p });
  }
  return p;
}
