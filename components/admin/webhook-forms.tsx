"use client";

import {
  createWebhookAction,
  deleteWebhookAction,
  replaceWebhookSecretAction,
  testWebhookAction,
  updateWebhookAction,
  type WebhookFormState,
} from "@/app/admin/webhooks/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FormError } from "@/components/forms/form-errors";
import { CheckboxField, ChoiceGroup, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";
import { listOf } from "@/lib/forms/state";

const INITIAL: WebhookFormState = {};
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
  // After a subscription is made the form empties itself for the next one: only a refusal keeps what was sent.
  const kept = state.error ? state : {};
  const ticked = (state.error ? listOf(state, "event") : undefined) ?? subscription?.events ?? [];
  const text = { state: kept, labelClassName: "block font-medium", inputClassName: input };
  return (
    <form {...formProps} className="max-w-2xl space-y-3 text-sm" noValidate data-testid="webhook-form">
      {subscription ? <input type="hidden" name="id" value={subscription.id} /> : null}
      <TextField
        {...text}
        name="url"
        type="url"
        required
        label="Target address"
        placeholder="https://cms.example.org/hooks/counterpoint"
        defaultValue={subscription?.url}
      />
      <TextField
        {...text}
        name="description"
        label={
          <>
            Name <span className="font-normal text-black/60">(for you: which system this is)</span>
          </>
        }
        defaultValue={subscription?.description}
        placeholder="CMS"
      />
      <ChoiceGroup
        state={state}
        name="event"
        errorField="events"
        legend="Events"
        chosen={ticked}
        options={events.map((e) => ({
          value: e.type,
          label: (
            <>
              <code className="font-mono text-xs">{e.type}</code>: {e.description}
            </>
          ),
        }))}
      />
      <CheckboxField
        state={kept}
        name="active"
        checked={subscription?.active ?? true}
        className="flex items-center gap-2"
        boxClassName=""
        label="Active (off: nothing is sent; deliveries wait until it is on again)"
      />
      <SubmitButton pending={pending} look="secondary">
        {subscription ? "Save" : "Subscribe"}
      </SubmitButton>
      <Outcome state={state} shown={["url", "description", "events"]} />
    </form>
  );
}

export function ReplaceSecretForm({ id }: { id: string }) {
  const { state, pending, formProps } = useServerForm(replaceWebhookSecretAction, INITIAL);
  return (
    <form {...formProps} className="space-y-2 text-sm">
      <input type="hidden" name="id" value={id} />
      <SubmitButton pending={pending} look="secondary">
        Replace the signing secret
      </SubmitButton>
      <Outcome state={state} shown={[]} />
    </form>
  );
}

/** Sends a signed test event to this webhook now and says what the receiver answered. */
export function TestWebhookForm({ id }: { id: string }) {
  const { state, pending, formProps } = useServerForm(testWebhookAction, INITIAL);
  return (
    <form {...formProps} className="space-y-2 text-sm" data-testid="webhook-test">
      <input type="hidden" name="id" value={id} />
      <SubmitButton pending={pending} look="secondary">
        Send a test event
      </SubmitButton>
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
      <SubmitButton pending={pending} look="danger">
        Delete subscription
      </SubmitButton>
      <Outcome state={state} shown={[]} />
    </form>
  );
}
