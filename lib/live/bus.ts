import { EventEmitter } from "node:events";
import { peekProcessGlobal, processGlobal } from "@/lib/process/globals";

/*
 * "This session's board changed": told to this process's boards at once, and to every other
 * process through the PostgreSQL bus that carries debate events (lib/debate/pg-bus.ts), on one
 * signal channel for all sessions. The message carries no cards: a board reads the cards after
 * the revision it showed last (db/queries/live.ts cardsAfter), so a missed or repeated signal
 * loses or doubles nothing, and a board that reconnects resumes the same way.
 */

export const LIVE_SIGNAL = "cp_live_cards";
const ANY = "*";

function boards(): EventEmitter {
  return processGlobal("live-boards", () => {
    const e = new EventEmitter();
    // One listener per open board; many boards are expected.
    e.setMaxListeners(0);
    let wired = false;
    // The other processes' signals: every board here looks again (the signal does not say which session).
    const wire = () => {
      if (wired) return;
      const bus = peekProcessGlobal("pg-event-bus");
      if (!bus) return;
      wired = true;
      bus.onSignal(LIVE_SIGNAL, () => e.emit(ANY));
    };
    e.on("newListener", wire);
    return e;
  });
}

/** Tells every board of `sessionId`, here and on every other server, that cards changed. */
export async function publishBoard(sessionId: string): Promise<void> {
  boards().emit(sessionId);
  await peekProcessGlobal("pg-event-bus")?.signal(LIVE_SIGNAL);
}

/** Calls `fn` whenever the board of `sessionId` may have changed; returns the way to stop. */
export function watchBoard(sessionId: string, fn: () => void): () => void {
  const e = boards();
  e.on(sessionId, fn);
  e.on(ANY, fn);
  return () => {
    e.off(sessionId, fn);
    e.off(ANY, fn);
  };
}
