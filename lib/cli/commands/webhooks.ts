import type { Command } from "commander";
import { getDb } from "@/db/client";
import { listSubscriptions } from "@/db/queries/webhooks";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { subscriptionInput } from "@/lib/webhooks/subscription-form";
import { createSubscription, deleteSubscription, WebhookRequestError } from "@/lib/webhooks/subscriptions";
import { sendTestEvent, testOutcomeWords, WebhookTestRefused } from "@/lib/webhooks/test-event";
import { emit, green, red } from "../output";

/*
 * Webhook subscriptions from the console, with the services /admin/webhooks and the API use. The
 * signing secret is printed once, when the subscription is made; nothing prints it again.
 */

const collect = (v: string, prev: string[]) => [...prev, v];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function register(program: Command) {
  const webhooks = program
    .command("webhooks")
    .description("Subscribe addresses to events, list, test and delete subscriptions (as /admin/webhooks).");

  webhooks
    .command("create")
    .description("Subscribe an address to events; prints the signing secret once, store it now.")
    .requiredOption("--url <url>", "where Counterpoint POSTs each event (https://...)")
    .option("--event <type>", `an event (${WEBHOOK_EVENT_TYPES.join(", ")}); repeatable`, collect, [])
    .option("--description <text>", "what the receiver is, e.g. CMS", "")
    .option("--disabled", "make it disabled: nothing is sent until it is enabled on /admin/webhooks")
    .option("--json", "print JSON")
    .action(async (opts: { url: string; event: string[]; description: string; disabled?: boolean; json?: boolean }) => {
      const parsed = subscriptionInput.safeParse({
        url: opts.url,
        description: opts.description,
        events: opts.event,
        active: !opts.disabled,
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? "");
        throw new Error(`--${field === "events" ? "event" : field}: ${issue.message}`);
      }
      const { db } = await getDb();
      let made;
      try {
        made = await createSubscription(db, null, parsed.data);
      } catch (e) {
        if (e instanceof WebhookRequestError) throw new Error(`--${e.field ?? "url"}: ${e.message}`);
        throw e;
      }
      const { row, secret } = made;
      emit(
        !!opts.json,
        { id: row.id, url: row.url, events: row.events, active: row.active, secret },
        () =>
          `${green("✔")} Subscribed ${row.url} to ${row.events.join(", ")}${row.active ? "" : " (disabled)"}.\nSigning secret: ${secret}\nStore it in the receiver now: it is not shown again (replace it on /admin/webhooks/${row.id}).`,
      );
    });

  webhooks
    .command("list")
    .description("List subscriptions (never their secrets), newest first.")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { db } = await getDb();
      const rows = await listSubscriptions(db);
      emit(
        !!opts.json,
        rows.map(({ at: _at, ...r }) => r),
        () =>
          rows.length
            ? rows
                .map(
                  (r) =>
                    `${r.id}\t${r.url}\t${r.events.join(",")}\t${r.active ? "active" : "disabled"}\t${r.pending} waiting, ${r.failed} failed`,
                )
                .join("\n")
            : "No webhook subscriptions.",
      );
    });

  webhooks
    .command("test")
    .description(
      "Send a signed webhook.test event to one subscription now and print what the receiver answered (as the Test button of /admin/webhooks/<id>); exits 1 unless it was delivered.",
    )
    .argument("<id>", "the subscription's id (`counterpoint webhooks list`)")
    .option("--json", "print JSON")
    .action(async (id: string, opts: { json?: boolean }) => {
      const notFound = `No subscription has the id ${id}; \`counterpoint webhooks list\` lists them.`;
      if (!UUID.test(id)) throw new Error(notFound);
      const { db } = await getDb();
      let outcome;
      try {
        outcome = await sendTestEvent(db, id);
      } catch (e) {
        if (e instanceof WebhookTestRefused) throw new Error(e.code === "not_found" ? notFound : e.message);
        throw e;
      }
      const o = outcome;
      emit(
        !!opts.json,
        o,
        () =>
          `${o.outcome === "delivered" ? green("✔") : red("✘")} ${testOutcomeWords(o)}${o.responseExcerpt ? `\nThe receiver said: ${o.responseExcerpt}` : ""}`,
      );
      if (o.outcome !== "delivered") process.exitCode = 1;
    });

  webhooks
    .command("delete")
    .description("Delete a subscription: deliveries still waiting are never sent, and its log goes with it.")
    .argument("<id>", "the subscription's id (`counterpoint webhooks list`)")
    .option("--json", "print JSON")
    .action(async (id: string, opts: { json?: boolean }) => {
      const { db } = await getDb();
      if (!UUID.test(id) || !(await deleteSubscription(db, id)))
        throw new Error(`No subscription has the id ${id}; \`counterpoint webhooks list\` lists them.`);
      emit(!!opts.json, { id, deleted: true }, () => `${green("✔")} Deleted subscription ${id}.`);
    });
}
