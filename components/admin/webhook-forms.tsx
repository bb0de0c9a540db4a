"use client";

import {
  createWebhookAction,
  deleteWebhookAction,
  replaceWebhookSecretAction,
  updateWebhookAction,
  type WebhookFormState,
} from "@/app/admin/webhooks/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { listOf } from "@/lib/forms/state";

const INITIAL: WebhookFormState = {};
const button = "rounded-md border border-black/20 bg-white px-3 py-1 text-sm hover:bg-black/5 disabled:opacity-60";
const input = "mt-1 block w-full rounded-md border border-black/20 bg-white px-2 py-1.5 font-normal";

export type EventChoice = { type: string; description: string };

/** The outcome beside the button, and a new secret, shown this once. */
function Outcome({ state, shown }: { state: WebhookFormState; shown: string[] }) {
  if (state.error) return <FormError state={state} shown={shown} className="text-sm text-red-900" />;
  if (!state.message) return null;
  return (
    <div role="status" className="space-y-1 text-sm text-green-900">
      <p>{state.message}</p>
      {state.secret ? (
        <code
          data-testid="webhook-secret"
          className="block break-all rounded bg-black/5 px-2 py-1 font-mono text-xs text-black"
        >
          {state.secret}
        </code>
      ) : null}
    </div>
  );
}

export function SubscriptionForm({
  events,
  subscription,
}: {
  events: EventChoice[];
  /** Editing this one; none: a new subscription. */
  subscription?: { id: string; url: string; description: string; events: string[]; active: boolean };
}) {
  const { state, pending, formProps } = useServerForm(
    subscription ? updateWebhookAction : createWebhookAction,
    INITIAL,
    { clearOnSuccess: !subscription },
  );
  const v = state.error ? state.values : undefined;
  const ticked = (state.error ? listOf(state, "event") : undefined) ?? subscription?.events ?? [];
  const active = v ? v.active === "on" : (subscription?.active ?? true);
  return (
    <form {...formProps} className="max-w-2xl space-y-3 text-sm" noValidate data-testid="webhook-form">
      {subscription ? <input type="hidden" name="id" value={subscription.id} /> : null}
      <label className="block font-medium">
        Target address
        <input
          name="url"
          type="url"
          required
          placeholder="https://cms.example.org/hooks/counterpoint"
          defaultValue={v?.url ?? subscription?.url}
          aria-invalid={state.field === "url" || undefined}
          className={input}
        />
      </label>
      <FieldError state={state} field="url" />
      <label className="block font-medium">
        Name <span className="font-normal text-black/60">(for you: which system this is)</span>
        <input
          name="description"
          defaultValue={v?.description ?? subscription?.description}
          placeholder="CMS"
          aria-invalid={state.field === "description" || undefined}
          className={input}
        />
      </label>
      <FieldError state={state} field="description" />
      <fieldset className="space-y-1">
        <legend className="mb-1 font-medium">Events</legend>
        {events.map((e) => (
          <label key={e.type} className="flex items-start gap-2">
            <input
              type="checkbox"
              name="event"
              value={e.type}
              defaultChecked={ticked.includes(e.type)}
              className="mt-1"
            />
            <span>
              <code className="font-mono text-xs">{e.type}</code>: {e.description}
            </span>
          </label>
        ))}
        <FieldError state={state} field="events" />
      </fieldset>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="active" defaultChecked={active} />
        Active (off: nothing is sent; deliveries wait until it is on again)
      </label>
      <button type="submit" disabled={pending} className={button}>
        {subscription ? "Save" : "Subscribe"}
      </button>
      <Outcome state={state} shown={["url", "description", "events"]} />
    </form>
  );
}

export function ReplaceSecretForm({ id }: { id: string }) {
  const { state, pending, formProps } = useServerForm(replaceWebhookSecretAction, INITIAL);
  return (
    <form {...formProps} className="space-y-2 text-sm">
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={pending} className={button}>
        Replace the signing secret
      </button>
      <Outcome state={state} shown={[]} />
    </form>
  );
}

/**
 * Deleting asks for a ticked box first (it works without JavaScript too), and says what goes with
 * the subscription: deliveries still waiting, and the log.
 */
export function DeleteSubscriptionForm({ id, waiting, logged }: { id: string; waiting: number; logged: number }) {
  const { state, pending, formProps } = useServerForm(deleteWebhookAction, INITIAL);
  return (
    <form {...formProps} className="max-w-2xl space-y-2 text-sm" data-testid="webhook-delete">
      <input type="hidden" name="id" value={id} />
      <p className="text-black/70">
        Nothing more is sent to this address
        {waiting
          ? waiting === 1
            ? ": the delivery still waiting is dropped"
            : `: the ${waiting} deliveries still waiting are dropped`
          : ""}
        .{" "}
        {logged
          ? `Its delivery log (${logged === 1 ? "1 delivery" : `${logged} deliveries`}) is deleted with it. To stop sending but keep the log, disable the subscription instead.`
          : "It has sent nothing yet, so no log is lost."}
      </p>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          name="confirm"
          value="delete"
          className="mt-1"
          aria-invalid={!!state.error || undefined}
        />
        <span>Yes, delete this subscription and its delivery log.</span>
      </label>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-red-900/40 bg-white px-3 py-1 text-sm text-red-900 hover:bg-red-50 disabled:opacity-60"
      >
        Delete subscription
      </button>
      <Outcome state={state} shown={[]} />
    </form>
  );
}
