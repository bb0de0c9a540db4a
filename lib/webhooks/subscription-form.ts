import { z } from "zod";
import { getConfig } from "@/lib/config";
import { addressRefusal, isAddressLiteral } from "@/lib/net/address-policy";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./events";

/*
 * What the admin form sends for a subscription, checked before anything is saved. A target whose
 * address is written as a private or local address is refused here already; a name is resolved
 * and checked when saved (target-check.ts) and again on every delivery (lib/net/safe-fetch.ts).
 */

const target = z
  .string()
  .trim()
  .min(1, "Enter the address Counterpoint should POST events to, e.g. https://cms.example.org/hooks/counterpoint.")
  .max(2000, "The address is over 2,000 characters; use a shorter one.")
  .superRefine((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({
        code: "custom",
        message: `"${raw}" is not a web address; it must start with https:// or http://.`,
      });
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      ctx.addIssue({ code: "custom", message: "Only https:// (or http://) addresses can receive webhooks." });
    else if (url.username || url.password)
      ctx.addIssue({
        code: "custom",
        message:
          "Leave the user name and password out of the address; every delivery is signed with the secret instead.",
      });
    else {
      const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
      if (isAddressLiteral(host) && addressRefusal(host, getConfig().fetch.allow))
        ctx.addIssue({
          code: "custom",
          message: `${url.host} is on a private or local network (or this server itself), where webhooks are not sent for safety. An administrator can allow intranet hosts with FETCH_ALLOW_HOSTS.`,
        });
    }
  });

export const subscriptionInput = z.object({
  url: target,
  description: z.string().trim().max(200, "Keep the name under 200 characters."),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1, "Tick at least one event; a subscription to nothing would never be sent anything."),
  active: z.boolean(),
});

export type SubscriptionInput = z.infer<typeof subscriptionInput>;

/** The form's fields as the schema wants them; unknown event names are dropped (only the listed boxes exist). */
export function subscriptionFromForm(form: FormData) {
  return subscriptionInput.safeParse({
    url: String(form.get("url") ?? ""),
    description: String(form.get("description") ?? ""),
    events: form
      .getAll("event")
      .map(String)
      .filter((e): e is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e)),
    active: form.get("active") === "on",
  });
}
