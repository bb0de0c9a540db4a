"use server";

import { revalidatePath } from "next/cache";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import * as s from "@/db/schema";
import { createShare, revokeShare } from "@/lib/auth/access";
import { requirePermission } from "@/lib/auth/server";

const UUID = /^[0-9a-f-]{36}$/i;

export async function createShareAction(form: FormData) {
  const user = await requirePermission("debate:share");
  const debateId = String(form.get("debateId") ?? "");
  if (!UUID.test(debateId)) return;
  const { db } = await getDb();
  const [exists] = await db.select({ id: s.debates.id }).from(s.debates).where(eq(s.debates.id, debateId));
  if (!exists) return;
  await createShare(db, debateId, user.id);
  revalidatePath(`/debates/${debateId}`);
}

export async function revokeShareAction(form: FormData) {
  await requirePermission("debate:share");
  const { db } = await getDb();
  await revokeShare(db, String(form.get("token") ?? ""));
  revalidatePath(`/debates/${String(form.get("debateId") ?? "")}`);
}
