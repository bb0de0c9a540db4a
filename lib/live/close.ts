import type { Database } from "@/db/client";
import { closeLiveSession } from "@/db/queries/live";
import { sessionView, type SessionView } from "./board";

/*
 * Closing a session: the event is over, the board becomes an archive (lib/live/archive.ts). A push
 * after the close is refused with CLOSED_MESSAGE; one that took the session's lock before the close
 * is stored whole. Who may close is the caller's check (debate:start, as pushing lines).
 */

/** What a sender is told when it pushes to a closed session (the API answers 409 with it). */
export const CLOSED_MESSAGE =
  "This live session is closed: its lines are an archive now and no more are taken. Open a new session to go on.";

/** Closes the session (again is harmless); null when there is no such session. */
export async function closeSession(db: Database, id: string): Promise<SessionView | null> {
  const row = await closeLiveSession(db, id);
  return row ? sessionView(row) : null;
}
