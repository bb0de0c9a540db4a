"use client";

import { inviteAction, setRolesAction, settingsAction, type AdminState } from "@/app/admin/actions";
import type { Settings } from "@/db/queries/settings";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { listOf } from "@/lib/forms/state";

const INITIAL: AdminState = {};

/** The outcome beside the button: a refusal no field shows, or what was done. */
function Feedback({ state, shown = [] }: { state: AdminState; shown?: string[] }) {
  if (state.error) return <FormError state={state} shown={shown} className="text-sm text-red-900" />;
  if (state.message)
    return (
      <p role="status" className="text-sm text-green-900">
        {state.message}
        {state.link ? (
          <>
            {" "}
            <code data-testid="invite-link" className="break-all rounded bg-black/5 px-1">
              {typeof window === "undefined" || !state.link.startsWith("/")
                ? state.link
                : `${window.location.origin}${state.link}`}
            </code>
          </>
        ) : null}
      </p>
    );
  return null;
}

const button = "rounded-md border border-black/20 bg-white px-3 py-1 text-sm hover:bg-black/5 disabled:opacity-60";

export function RolesForm({ userId, roles, allRoles }: { userId: string; roles: string[]; allRoles: string[] }) {
  const { state, pending, formProps } = useServerForm(setRolesAction, INITIAL);
  const ticked = listOf(state, "role") ?? roles;
  return (
    <form {...formProps} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="userId" value={userId} />
      {allRoles.map((r) => (
        <label key={r} className="flex items-center gap-1">
          <input type="checkbox" name="role" value={r} defaultChecked={ticked.includes(r)} />
          {r}
        </label>
      ))}
      <button type="submit" disabled={pending} className={button}>
        Save roles
      </button>
      <FieldError state={state} field="role" className="w-full text-sm text-red-900" />
      <Feedback state={state} shown={["role"]} />
    </form>
  );
}

export function InviteForm({ allRoles }: { allRoles: string[] }) {
  const { state, pending, formProps } = useServerForm(inviteAction, INITIAL);
  // Nothing ticked in advance: a pre-ticked role was kept by people who ticked others, and the
  // invitation then granted a role nobody chose.
  const ticked = listOf(state, "role") ?? [];
  return (
    <form {...formProps} className="space-y-2" noValidate>
      <label className="block text-sm font-medium">
        Email
        <input
          name="email"
          type="email"
          required
          defaultValue={state.values?.email}
          aria-invalid={state.field === "email" || undefined}
          className="mt-1 block w-full max-w-sm rounded-md border border-black/20 bg-white px-2 py-1.5 font-normal"
        />
      </label>
      <FieldError state={state} field="email" />
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="mb-1 font-medium">Roles</legend>
        {allRoles.map((r) => (
          <label key={r} className="flex items-center gap-1">
            <input type="checkbox" name="role" value={r} defaultChecked={ticked.includes(r)} />
            {r}
          </label>
        ))}
        <FieldError state={state} field="role" className="w-full text-sm text-red-800" />
      </fieldset>
      <button type="submit" disabled={pending} className={button}>
        Create invitation link
      </button>
      <Feedback state={state} shown={["email", "role"]} />
    </form>
  );
}

export function SettingsForm({ settings }: { settings: Settings }) {
  const { state, pending, formProps } = useServerForm(settingsAction, INITIAL);
  return (
    <form {...formProps} className="max-w-2xl space-y-3 text-sm" noValidate>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          name="public_reading"
          defaultChecked={state.values ? state.values.public_reading === "on" : settings.public_reading}
          className="mt-1"
        />
        <span>
          <strong>Public newsroom page</strong>: anyone can read debates and corpora without signing in. Off: only
          signed-in people (and holders of a share link).
        </span>
      </label>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          name="blind_annotation"
          defaultChecked={state.values ? state.values.blind_annotation === "on" : settings.blind_annotation}
          className="mt-1"
        />
        <span>
          <strong>Blind annotation</strong>: annotators see nobody else&apos;s labels on a debate until they have
          submitted their own.
        </span>
      </label>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          name="show_verdict_before_label"
          defaultChecked={
            state.values ? state.values.show_verdict_before_label === "on" : settings.show_verdict_before_label
          }
          className="mt-1"
        />
        <span>
          <strong>Show the AI verdict before labelling</strong>: annotators see the judge&apos;s verdict while choosing
          their own label. Off (recommended): it appears once they have picked a label, so it cannot anchor it.
        </span>
      </label>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          name="fact_check_second_approval"
          defaultChecked={
            state.values ? state.values.fact_check_second_approval === "on" : settings.fact_check_second_approval
          }
          className="mt-1"
        />
        <span>
          <strong>A second person approves every fact-check</strong>: an editor sends a fact-check for review and
          another editor, who wrote none of it, approves and publishes it. Off: an editor publishes their own.
        </span>
      </label>
      <label className="block">
        Claim matching: how similar an earlier check must be to be shown before a debate starts (0 to 1)
        <input
          name="match_threshold"
          type="number"
          step="0.05"
          min={0}
          max={1}
          defaultValue={state.values?.match_threshold ?? settings.match_threshold}
          aria-invalid={state.field === "match_threshold" || undefined}
          className="ml-2 w-24 rounded-md border border-black/20 px-2 py-1"
        />
      </label>
      <FieldError state={state} field="match_threshold" />
      <label className="block">
        Claim matching: checks of claims more than this many days apart are flagged as possibly another event
        <input
          name="match_date_window_days"
          type="number"
          min={1}
          max={36500}
          defaultValue={state.values?.match_date_window_days ?? settings.match_date_window_days}
          aria-invalid={state.field === "match_date_window_days" || undefined}
          className="ml-2 w-24 rounded-md border border-black/20 px-2 py-1"
        />
      </label>
      <FieldError state={state} field="match_date_window_days" />
      <label className="block">
        Annotators per debate (overlap)
        <input
          name="annotation_overlap"
          type="number"
          min={1}
          max={20}
          defaultValue={state.values?.annotation_overlap ?? settings.annotation_overlap}
          aria-invalid={state.field === "annotation_overlap" || undefined}
          className="ml-2 w-20 rounded-md border border-black/20 px-2 py-1"
        />
      </label>
      <FieldError state={state} field="annotation_overlap" />
      <label className="block">
        Annotation guidelines (markdown; shown beside every labeling task)
        <textarea
          name="annotation_guidelines"
          defaultValue={state.values?.annotation_guidelines ?? settings.annotation_guidelines}
          rows={12}
          aria-invalid={state.field === "annotation_guidelines" || undefined}
          className="mt-1 block w-full rounded-md border border-black/20 p-2 font-mono text-xs"
        />
      </label>
      <FieldError state={state} field="annotation_guidelines" />
      <button type="submit" disabled={pending} className={button}>
        Save settings
      </button>
      <Feedback
        state={state}
        shown={["match_threshold", "match_date_window_days", "annotation_overlap", "annotation_guidelines"]}
      />
    </form>
  );
}
