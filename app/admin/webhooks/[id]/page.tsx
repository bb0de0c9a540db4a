import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Section } from "@/components/ui/section";
import { PostButton } from "@/components/ui/post-button";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { attemptsOf, deliveriesOf, deliveryCounts, getSubscription } from "@/db/queries/webhooks";
import { pagePermission } from "@/lib/auth/server";
import { EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import {
  DeleteSubscriptionForm,
  ReplaceSecretForm,
  SubscriptionForm,
  TestWebhookForm,
} from "@/components/admin/webhook-forms";
import { resendWebhookAction, setWebhookActiveAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Webhook" };

const EVENT_CHOICES = WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: EVENT_DESCRIPTIONS[type] }));
const time = (d: Date) => `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;

const STATUS: Record<string, { words: string; className: string }> = {
  delivered: { words: "delivered", className: "bg-green-100 text-green-900" },
  pending: { words: "waiting", className: "bg-amber-100 text-amber-900" },
  sending: { words: "sending", className: "bg-amber-100 text-amber-900" },
  failed: { words: "failed", className: "bg-red-100 text-red-900" },
};

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await pagePermission("admin", `/admin/webhooks/${id}`);
  const { db } = await getDb();
  const sub = await getSubscription(db, id);
  if (!sub) notFound();
  const deliveries = await deliveriesOf(db, id);
  const counts = await deliveryCounts(db, id);
  const attempts = await attemptsOf(
    db,
    deliveries.map((d) => d.id),
  );
  const byDelivery = new Map<string, typeof attempts>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <Breadcrumbs
          trail={[
            { href: "/admin", label: "Admin" },
            { href: "/admin/webhooks", label: "webhooks" },
          ]}
        />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          {sub.description || "Unnamed subscription"}
        </h1>
        <p className="font-mono text-xs [overflow-wrap:anywhere] text-black/70">{sub.url}</p>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span
            className={
              sub.active
                ? "rounded bg-green-100 px-1.5 text-xs text-green-900"
                : "rounded bg-black/10 px-1.5 text-xs text-black/70"
            }
            data-testid="webhook-active"
          >
            {sub.active ? "active" : "disabled: nothing is sent"}
          </span>
          <PostButton action={setWebhookActiveAction} fields={{ id: sub.id, active: sub.active ? "false" : "true" }}>
            {sub.active ? "Disable" : "Enable"}
          </PostButton>
        </div>
      </div>

      <Section id="test" title="Test">
        <p className="max-w-3xl text-sm text-black/70">
          Sends a <code className="font-mono text-xs">webhook.test</code> event to this address now, signed with its
          secret like every event, whatever events it subscribes to. It is tried once, and shows in the log below.
        </p>
        {sub.active ? (
          <TestWebhookForm id={sub.id} />
        ) : (
          <p className="text-sm text-black/70">This webhook is disabled: enable it to send a test.</p>
        )}
      </Section>

      <Section id="log" title="Delivery log">
        {deliveries.length === 0 ? (
          <p className="text-sm text-black/60">Nothing sent yet: events appear here as they happen.</p>
        ) : (
          <ul className="space-y-3">
            {deliveries.map((d) => {
              const st = STATUS[d.status]!;
              const tries = byDelivery.get(d.id) ?? [];
              return (
                <li
                  key={d.id}
                  className="space-y-2 rounded-md border border-black/10 p-3 text-sm"
                  data-testid="delivery"
                  data-status={d.status}
                >
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <code className="font-mono text-xs">{d.type}</code>
                    <span className={`rounded px-1.5 text-xs ${st.className}`}>{st.words}</span>
                    <span className="text-xs text-black/60">{time(d.createdAt)}</span>
                    {d.status === "pending" && sub.active ? (
                      <span className="text-xs text-black/60">next try {time(d.nextAttemptAt)}</span>
                    ) : null}
                    {d.status !== "sending" ? (
                      <form action={resendWebhookAction} className="ml-auto">
                        <input type="hidden" name="deliveryId" value={d.id} />
                        <button type="submit" className="underline">
                          Send again
                        </button>
                      </form>
                    ) : null}
                  </div>
                  {tries.length ? (
                    <ol className="space-y-1 border-t border-black/10 pt-2">
                      {tries.map((a) => (
                        <li key={a.id} className="text-xs" data-testid="attempt" data-outcome={a.outcome}>
                          <div className="flex flex-wrap gap-x-3 gap-y-0.5">
                            <span className="font-medium">
                              Try {a.attempt}
                              {a.manual ? " (sent again)" : ""}
                            </span>
                            <span>{time(a.createdAt)}</span>
                            <span>{a.responseStatus ? `answer ${a.responseStatus}` : "no answer"}</span>
                            <span>{a.durationMs} ms</span>
                            <span
                              className={
                                a.outcome === "delivered"
                                  ? "text-green-900"
                                  : a.outcome === "refused"
                                    ? "text-red-900"
                                    : "text-amber-900"
                              }
                            >
                              {a.outcome}
                            </span>
                          </div>
                          {a.error ? <p className="[overflow-wrap:anywhere] text-black/70">{a.error}</p> : null}
                          {a.responseExcerpt ? (
                            <p className="[overflow-wrap:anywhere] text-black/60">
                              The receiver said: <q className="font-mono">{a.responseExcerpt}</q>
                            </p>
                          ) : null}
                        </li>
                      ))}
                    </ol>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      <Section id="settings" title="Settings">
        {/* Only the fields the form shows: whatever a client component gets is sent to the browser (never the secret). */}
        <SubscriptionForm
          events={EVENT_CHOICES}
          subscription={{
            id: sub.id,
            url: sub.url,
            description: sub.description,
            events: sub.events,
            active: sub.active,
          }}
        />
      </Section>

      <Section id="secret" title="Signing secret">
        <p className="max-w-3xl text-sm text-black/70">
          Shown only when made. Replacing it signs every delivery from then on with the new one, so update the receiver
          at the same time.
        </p>
        <ReplaceSecretForm id={sub.id} />
      </Section>

      <Section id="delete" title="Delete">
        <DeleteSubscriptionForm id={sub.id} waiting={counts.waiting} logged={counts.total} />
      </Section>
    </div>
  );
}
