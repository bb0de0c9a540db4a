"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { resetFailedItems } from "@/db/queries/eval";
import { hostQueuedRun, queueRun } from "@/lib/eval/queue";
import { requirePermission } from "@/lib/auth/server";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";

/**
 * Retries one failed item (or all of a run's). On PostgreSQL it goes back into the pg-boss queue for
 * the running workers; on the embedded database this server process is the only one that can run
 * it, so it runs here in the background.
 */
export async function retryFailedAction(form: FormData) {
  return refusalsAsStatus(async () => {
    // Retrying spends model budget like starting debates does.
    await requirePermission("debate:start");
    const runId = String(form.get("run") ?? "");
    const itemId = form.get("item") ? String(form.get("item")) : undefined;
    if (!/^[0-9a-f-]{36}$/i.test(runId) || (itemId !== undefined && !/^[0-9a-f-]{36}$/i.test(itemId))) return;
    const h = await getDb();
    const ids = await resetFailedItems(h.db, runId, itemId ? [itemId] : undefined);
    if (ids.length) await hostQueuedRun((await queueRun(h, runId, { itemIds: ids })).executor, runId);
    revalidatePath(`/eval/${runId}`);
  });
}
