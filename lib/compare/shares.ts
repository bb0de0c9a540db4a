import type { Database } from "@/db/client";
import { insertComparisonShare } from "@/db/queries/comparison-shares";
import { randomToken } from "@/lib/auth/tokens";

/** A new read-only link to a comparison; returns its token (unguessable, URL-safe). */
export async function createComparisonShare(
  db: Database,
  comparisonId: string,
  createdBy: string,
  opts: { transcripts?: boolean } = {},
): Promise<string> {
  const token = randomToken(24);
  await insertComparisonShare(db, token, comparisonId, createdBy, opts);
  return token;
}
