import type { Database } from "@/db/client";
import { getDebateStatus } from "@/db/queries/debate-run";

/** What a person pressing Start or Resume reads when the debate cannot be taken, in words they can act on. */

export const ALREADY_RUNNING =
  "This debate is already running (another run took it a moment ago); its page follows it live. Stop it first to start it again.";

export const STILL_STOPPING = "This debate is still stopping; try again in a moment.";

/** Stored on a debate whose process died while running it (shown on its page). */
export const INTERRUPTED_BY_RESTART =
  "The server stopped while this debate was running. Resume it to continue from the last finished turn.";

/** Why a claim was refused. */
export async function claimRefusal(db: Database, id: string): Promise<string> {
  const row = await getDebateStatus(db, id);
  if (!row) return "There is no such debate.";
  if (row.status === "completed") return "This debate has already finished; its verdict stands.";
  if (row.status === "running") return ALREADY_RUNNING;
  return `This debate is ${row.status} and cannot be started now. Reload the page and try again.`;
}
