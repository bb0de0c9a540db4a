import Link from "next/link";
import { Section } from "@/components/ui/section";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { getDb } from "@/db/client";
import { listSubscriptions } from "@/db/queries/webhooks";
import { pagePermission } from "@/lib/auth/server";
import { getConfig } from "@/lib/config";
import { EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { durationWords, retrySchedule } from "@/lib/webhooks/schedule";
import { SubscriptionForm } from "@/components/admin/webhook-forms";

export const dynamic = "force-dynamic";
export const metadata = { title: "Webhooks" };

const EVENT_CHOICES = WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: EVENT_DESCRIPTIONS[type] }));

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  await pagePermission("admin", "/admin/webhooks");
  const { deleted } = await searchParams;
  const { db } = await getDb();
  const subscriptions = await listSubscriptions(db);
  const { retryBaseMs, maxAttempts } = getConfig().webhooks;
  // "2 h 8 min" stays on one line.
  const waits = retrySchedule(retryBaseMs, maxAttempts).map((ms) => durationWords(ms).replaceAll(" ", "\u00a0"));
  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <Breadcrumbs trail={[{ href: "/admin", label: "Admin" }]} here="webhooks" />
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <p className="max-w-3xl text-sm text-black/70">
          Your other systems (a CMS, a tipline, a dashboard) hear about results without anyone clicking: each event is
          POSTed as JSON, signed as the Standard Webhooks specification says, to every active subscription that asked
          for it. A failed delivery is tried again{" "}
          {waits.length ? `after ${waits.join(", ")}` : "never (WEBHOOK_MAX_ATTEMPTS=1)"}; then it is marked failed and
          can be sent again from its log.
        </p>
      </div>

      {deleted === "1" ? (
        <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
          Subscription deleted: nothing more is sent to it.
        </p>
      ) : null}

      <Section id="subscriptions" title="Subscriptions">
        {subscriptions.length === 0 ? (
          <p className="text-sm text-black/60">None yet: add one below.</p>
        ) : (
          <ul className="divide-y divide-black/10 rounded-md border border-black/10">
            {subscriptions.map((s) => (
              <li key={s.id} className="space-y-1 p-3 text-sm" data-testid="webhook-row">
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                  <Link href={`/admin/webhooks/${s.id}`} className="font-medium underline">
                    {s.description || "Unnamed"}
                  </Link>
                  <span
                    className={
                      s.active
                        ? "rounded bg-green-100 px-1.5 text-xs text-green-900"
                        : "rounded bg-black/10 px-1.5 text-xs text-black/70"
                    }
                  >
                    {s.active ? "active" : "disabled"}
                  </span>
                  {s.failed ? (
                    <span className="rounded bg-red-100 px-1.5 text-xs text-red-900">{s.failed} failed</span>
                  ) : null}
                  {s.pending ? (
                    <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-900">{s.pending} waiting</span>
                  ) : null}
                </div>
                <div className="font-mono text-xs [overflow-wrap:anywhere] text-black/80">{s.url}</div>
                <div className="text-xs text-black/60">
                  {s.events.join(", ")} · added {s.createdAt.toISOString().slice(0, 10)}
                  {s.createdBy ? ` by ${s.createdBy}` : ""}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="add" title="Add a subscription">
        <p className="max-w-3xl text-sm text-black/70">
          The signing secret is shown once, when the subscription is made: put it in the receiving system, which checks
          every request with it. Lost it? Replace it from the subscription&apos;s page.
        </p>
        <SubscriptionForm events={EVENT_CHOICES} />
      </Section>
    </div>
  );
}
