import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";

/*
 * The earlier check the claim-matching tests find: a claim checked last year with a finished debate
 * and a verdict, as the runner leaves them, and a paraphrase of it that matching should recognise.
 */

export const EARLIER = "The Eiffel Tower in Paris is 330 metres tall, twice the height it had in 1889.";
export const PARAPHRASE = "Paris's Eiffel Tower stands 330 metres tall, double its height in 1889.";

/** Stores the earlier check (claim dated 2024-05-20, debate finished 2024-05-21, verdict False); its debate's id. */
export async function seedEarlierCheck(db: DbHandle["db"]): Promise<string> {
  const [claim] = await db
    .insert(s.claims)
    .values({ text: EARLIER, claimDate: new Date("2024-05-20T00:00:00Z") })
    .returning({ id: s.claims.id });
  const [debate] = await db
    .insert(s.debates)
    .values({
      claimId: claim!.id,
      protocol: "radar",
      status: "completed",
      config: {},
      models: {},
      finishedAt: new Date("2024-05-21T10:00:00Z"),
    })
    .returning({ id: s.debates.id });
  await db.insert(s.verdicts).values({ debateId: debate!.id, label: "FALSE" });
  return debate!.id;
}
