import type { Database } from "@/db/client";
import { installSecret } from "@/lib/install-secret";
import { debateFence, type Fence } from "@/lib/prompts/fence";

/**
 * The fence a debate's prompts use, the same in every run of it: derived from the debate's id and
 * the install's secret (FENCE_SECRET, else one kept in the database), so resuming a debate, on
 * this process or another, prompts with the fence it started with.
 */
export async function fenceForDebate(db: Database, debateId: string): Promise<Fence> {
  return debateFence(debateId, await installSecret(db));
}
