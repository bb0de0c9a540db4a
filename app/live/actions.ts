"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { createLiveSession } from "@/db/queries/live";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";
import { requirePermission } from "@/lib/auth/server";
import { scorerFor } from "@/lib/checkworthy";
import { PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { CARD_ACTIONS, actOnLiveCard, type CardAction } from "@/lib/live/actions";
import { closeSession } from "@/lib/live/close";
import { LiveError } from "@/lib/live/service";

export type LiveFormState = { error?: string; field?: string };

const createSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Name the event, e.g. “Leaders' debate, 3 June”.")
    .max(200, "The title is limited to 200 characters."),
  method: z.enum(PROTOCOL_NAMES, { error: "Choose a method for the debates started from cards." }),
  corpus: z.string().trim().max(64).optional(),
  threshold: z.coerce
    .number({ error: "The threshold is a number from 0 to 1." })
    .min(0, "The threshold is a number from 0 to 1.")
    .max(1, "The threshold is a number from 0 to 1.")
    .optional(),
});

/** Opens a live session and goes to its board. */
export async function createLiveAction(_prev: LiveFormState, form: FormData): Promise<LiveFormState> {
  return refusalsAsStatus(async () => {
    const me = await requirePermission("debate:start");
    const str = (k: string) => {
      const v = form.get(k);
      return typeof v === "string" && v.trim() ? v : undefined;
    };
    const parsed = createSchema.safeParse({
      title: str("title") ?? "",
      method: str("method"),
      corpus: str("corpus"),
      threshold: str("threshold"),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { error: issue.message, field: String(issue.path[0] ?? "") };
    }
    const { db } = await getDb();
    const row = await createLiveSession(db, {
      title: parsed.data.title,
      method: parsed.data.method,
      corpus: parsed.data.corpus ?? null,
      threshold: parsed.data.threshold ?? scorerFor("offline").threshold,
      createdBy: me.id,
    });
    redirect(`/live/${row.id}`);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A desk action on a card; the board shows the change through its stream. */
export async function cardAction(_prev: LiveFormState, form: FormData): Promise<LiveFormState> {
  return refusalsAsStatus(async () => {
    const action = String(form.get("action") ?? "");
    // Sending to an editor is an editor's permission; the rest start or steer debates.
    const me = await requirePermission(action === "draft" ? "fact-check:write" : "debate:start");
    if (!(CARD_ACTIONS as readonly string[]).includes(action)) return { error: "Choose what to do with the card." };
    const sessionId = String(form.get("sessionId") ?? "");
    const cardId = String(form.get("cardId") ?? "");
    if (!UUID.test(sessionId) || !UUID.test(cardId))
      return { error: "This card is not on this board any more; reload." };
    const handle = await getDb();
    try {
      await actOnLiveCard(handle, me, sessionId, cardId, action as CardAction);
      return {};
    } catch (e) {
      if (e instanceof LiveError) return { error: e.message };
      if (e instanceof Error && /Request|RateLimited|Model|MatchChoice/.test(e.name)) return { error: e.message };
      throw e;
    }
  });
}

/** Closes the session: no more lines are taken, and the board stays as its archive. */
export async function closeLiveAction(_prev: LiveFormState, form: FormData): Promise<LiveFormState> {
  return refusalsAsStatus(async () => {
    await requirePermission("debate:start");
    const sessionId = String(form.get("sessionId") ?? "");
    if (!UUID.test(sessionId)) return { error: "This session does not exist any more; go back to the live desk." };
    const { db } = await getDb();
    if (!(await closeSession(db, sessionId)))
      return { error: "This session does not exist any more; go back to the live desk." };
    revalidatePath(`/live/${sessionId}`);
    return {};
  });
}
