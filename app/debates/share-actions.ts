"use server";

import { revalidatePath } from "next/cache";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import * as s from "@/db/schema";
import { createShare, REVOKE_REFUSAL, revokeShare } from "@/lib/auth/access";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";
import { AuthError } from "@/lib/auth/policy";
import { announceRevoked } from "@/lib/auth/revocations";
import { requirePermission } from "@/lib/auth/server";

const UUID = /^[0-9a-f-]{36}$/i;

export async function createShareAction(form: FormData) {
  return refusalsAsStatus(async () => {
    const user = await requirePermission("debate:share");
    const debateId = String(form.get("debateId") ?? "");
    if (!UUID.test(debateId)) return;
    const { db } = await getDb();
    const [exists] = await db.select({ id: s.debates.id }).from(s.debates).where(eq(s.debates.id, debateId));
    if (!exists) return;
    await createShare(db, debateId, user.id);
    revalidatePath(`/debates/${debateId}`);
  });
}

/** Only the link's maker or an admin, and only for the debate it opens; open streams end at once. */
export async function revokeShareAction(form: FormData) {
  return refusalsAsStatus(async () => {
    const user = await requirePermission("debate:share");
    const debateId = String(form.get("debateId") ?? "");
    if (!UUID.test(debateId)) throw new AuthError(REVOKE_REFUSAL, 403);
    const { db } = await getDb();
    announceRevoked(await revokeShare(db, String(form.get("token") ?? ""), debateId, user));
    revalidatePath(`/debates/${debateId}`);
  });
}
