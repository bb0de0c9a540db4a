"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import * as q from "@/db/queries/webhooks";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";
import { AuthError } from "@/lib/auth/policy";
import { requirePermission } from "@/lib/auth/server";
import { refuse, type FormState } from "@/lib/forms/state";
import { sealSecret } from "@/lib/webhooks/secret-box";
import { newWebhookSecret } from "@/lib/webhooks/sign";
import { subscriptionFromForm, type SubscriptionInput } from "@/lib/webhooks/subscription-form";
import { createSubscription, deleteSubscription, WebhookRequestError } from "@/lib/webhooks/subscriptions";
import { webhookTargetRefusal } from "@/lib/webhooks/target-check";
import { sendTestEvent, testOutcomeWords, WebhookTestRefused } from "@/lib/webhooks/test-event";

/** A form's outcome; `secret` is the signing secret, shown this once (made, or replaced). */
export type WebhookFormState = FormState & { secret?: string; id?: string };

const GROUPS = ["event"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function admin(): Promise<{ id: string } | { error: string }> {
  try {
    return await requirePermission("admin");
  } catch (e) {
    if (e instanceof AuthError) return { error: e.message };
    throw e;
  }
}

function invalid(form: FormData, parsed: ReturnType<typeof subscriptionFromForm>): WebhookFormState {
  const issue = parsed.error!.issues[0]!;
  return refuse(form, issue.message, String(issue.path[0] ?? ""), GROUPS);
}

/** The form's subscription, or its refusal: the shape first, then where the address resolves. */
async function checked(
  form: FormData,
): Promise<{ ok: false; refusal: WebhookFormState } | { ok: true; data: SubscriptionInput }> {
  const parsed = subscriptionFromForm(form);
  if (!parsed.success) return { ok: false, refusal: invalid(form, parsed) };
  const why = await webhookTargetRefusal(parsed.data.url);
  if (why) return { ok: false, refusal: refuse(form, why, "url", GROUPS) };
  return { ok: true, data: parsed.data };
}

export async function createWebhookAction(_prev: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const me = await admin();
  if ("error" in me) return refuse(form, me.error, undefined, GROUPS);
  const parsed = subscriptionFromForm(form);
  if (!parsed.success) return invalid(form, parsed);
  let made: Awaited<ReturnType<typeof createSubscription>>;
  try {
    made = await createSubscription((await getDb()).db, me.id, parsed.data);
  } catch (e) {
    if (e instanceof WebhookRequestError) return refuse(form, e.message, e.field, GROUPS);
    throw e;
  }
  const { row, secret } = made;
  revalidatePath("/admin/webhooks");
  return {
    id: row.id,
    secret,
    message: `Subscribed ${row.url}. Copy the signing secret now: it is not shown again (you can replace it later).`,
  };
}

export async function updateWebhookAction(_prev: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const me = await admin();
  if ("error" in me) return refuse(form, me.error, undefined, GROUPS);
  const id = String(form.get("id") ?? "");
  const parsed = await checked(form);
  if (!parsed.ok) return parsed.refusal;
  if (!UUID.test(id) || !(await q.updateSubscription((await getDb()).db, id, parsed.data)))
    return refuse(form, "This subscription no longer exists; it may have been deleted.", undefined, GROUPS);
  revalidatePath("/admin/webhooks");
  revalidatePath(`/admin/webhooks/${id}`);
  return { message: parsed.data.active ? "Saved." : "Saved. The subscription is disabled: nothing is sent to it." };
}

export async function replaceWebhookSecretAction(_prev: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const me = await admin();
  if ("error" in me) return refuse(form, me.error);
  const id = String(form.get("id") ?? "");
  const secret = newWebhookSecret();
  const { db } = await getDb();
  if (!UUID.test(id) || !(await q.setSubscriptionSecret(db, id, await sealSecret(db, id, secret))))
    return refuse(form, "This subscription no longer exists; it may have been deleted.");
  return {
    secret,
    message:
      "New secret made; deliveries from now on are signed with it. Copy it now into the receiver: it is not shown again.",
  };
}

const deletion = z.object({
  id: z.string().regex(UUID, "This subscription no longer exists; it may have been deleted."),
  confirm: z.literal("delete", {
    error:
      "Tick the box to confirm: deleting stops every delivery still waiting and removes this subscription's delivery log.",
  }),
});

/**
 * Deletes a subscription after the admin confirmed it: what waits for it is never sent, and its
 * delivery log goes with it (the page says so; disabling keeps the log). Back to the list.
 */
export async function deleteWebhookAction(_prev: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const me = await admin();
  if ("error" in me) return refuse(form, me.error);
  const parsed = deletion.safeParse({ id: form.get("id"), confirm: form.get("confirm") });
  if (!parsed.success) return refuse(form, parsed.error.issues[0]!.message, "confirm");
  if (!(await deleteSubscription((await getDb()).db, parsed.data.id)))
    return refuse(form, "This subscription no longer exists; it may have been deleted already.");
  revalidatePath("/admin/webhooks");
  redirect("/admin/webhooks?deleted=1");
}

export async function setWebhookActiveAction(form: FormData) {
  return refusalsAsStatus(async () => {
    await requirePermission("admin");
    const id = String(form.get("id") ?? "");
    if (!UUID.test(id)) return;
    await q.setSubscriptionActive((await getDb()).db, id, form.get("active") === "true");
    revalidatePath("/admin/webhooks");
    revalidatePath(`/admin/webhooks/${id}`);
  });
}

/** "Send again": one more attempt of a delivery, now, with the same message id. */
export async function resendWebhookAction(form: FormData) {
  return refusalsAsStatus(async () => {
    await requirePermission("admin");
    const id = String(form.get("deliveryId") ?? "");
    if (!UUID.test(id)) return;
    const { db } = await getDb();
    const delivery = await q.getDelivery(db, id);
    if (!delivery) return;
    await q.resendDelivery(db, id);
    revalidatePath(`/admin/webhooks/${delivery.subscriptionId}`);
  });
}

/** "Send a test event": a signed `webhook.test` to this webhook, now; the receiver's answer is shown and logged. */
export async function testWebhookAction(_prev: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const me = await admin();
  if ("error" in me) return refuse(form, me.error);
  const id = String(form.get("id") ?? "");
  if (!UUID.test(id)) return refuse(form, "This subscription no longer exists; it may have been deleted.");
  try {
    const outcome = await sendTestEvent((await getDb()).db, id);
    revalidatePath(`/admin/webhooks/${id}`);
    const words = testOutcomeWords(outcome);
    return outcome.outcome === "delivered" || outcome.outcome === "pending" ? { message: words } : refuse(form, words);
  } catch (e) {
    if (e instanceof WebhookTestRefused) return refuse(form, e.message);
    throw e;
  }
}
