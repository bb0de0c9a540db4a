import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/** The comparison a debate was started in, or null: its page links back to the side-by-side view. */
export async function comparisonOfDebate(db: Database, debateId: string): Promise<string | null> {
  const [row] = await db.select({ id: s.debates.comparisonId }).from(s.debates).where(eq(s.debates.id, debateId));
  return row?.id ?? null;
}
