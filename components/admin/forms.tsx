"use client";

import { useActionState } from "react";
import { inviteAction, setRolesAction, settingsAction, type AdminState } from "@/app/admin/actions";
import type { Settings } from "@/db/queries/settings";

function Feedback({ state }: { state: AdminState }) {
  if (state.error)
    return (
      <p role="alert" className="text-sm text-red-900">
        {state.error}
      </p>
    );
  if (state.message)
    return (
      <p role="status" className="text-sm text-green-900">
        {state.message}
        {state.link ? (
          <>
            {" "}
            <code data-testid="invite-link" className="break-all rounded bg-black/5 px-1">
              {typeof window === "undefined" || !state.link.startsWith("/") ? state.link : `${window.location.origin}${state.link}`}
            </code>
          </>
        ) : null}
      </p>
    );
  return null;
}

const button = "rounded-md border border-black/20 bg-white px-3 py-1 text-sm hover:bg-black/5 disabled:opacity-60";

export function RolesForm({ userId, roles, allRoles }: { userId: string; roles: string[]; allRoles: string[] }) {
  const [state, action, pending] = useActionState(setRolesAction, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="userId" value={userId} />
      {allRoles.map((r) => (
        <label key={r} className="flex items-center gap-1">
          <input type="checkbox" name="role" value={r} defaultChecked={roles.includes(r)} />
          {r}
        </label>
      ))}
      <button type="submit" disabled={pending} className={button}>
        Save roles
      </button>
      <Feedback state={state} />
    </form>
  );
}

export function InviteForm({ allRoles }: { allRoles: string[] }) {
  const [state, action, pending] = useActionState(inviteAction, {});
  return (
    <form action={action} className="space-y-2">
      <label className="block text-sm font-medium">
        Email
        <input name="email" type="email" required className="mt-1 block w-full max-w-sm rounded-md border border-black/20 bg-white px-2 py-1.5 font-normal" />
      </label>
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="mb-1 font-medium">Roles</legend>
        {allRoles.map((r) => (
          <label key={r} className="flex items-center gap-1">
            <input type="checkbox" name="role" value={r} defaultChecked={r === "journalist"} />
            {r}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={pending} className={button}>
        Create invitation link
      </button>
      <Feedback state={state} />
    </form>
  );
}

export function SettingsForm({ settings }: { settings: Settings }) {
  const [state, action, pending] = useActionState(settingsAction, {});
  return (
    <form action={action} className="max-w-2xl space-y-3 text-sm">
      <label className="flex items-start gap-2">
        <input type="checkbox" name="public_reading" defaultChecked={settings.public_reading} className="mt-1" />
        <span>
          <strong>Public newsroom page</strong>: anyone can read debates and corpora without signing in. Off: only signed-in people (and holders of a share link).
        </span>
      </label>
      <label className="flex items-start gap-2">
        <input type="checkbox" name="blind_annotation" defaultChecked={settings.blind_annotation} className="mt-1" />
        <span>
          <strong>Blind annotation</strong>: annotators see nobody else&apos;s labels on a debate until they have submitted their own.
        </span>
      </label>
      <label className="flex items-start gap-2">
        <input type="checkbox" name="show_verdict_before_label" defaultChecked={settings.show_verdict_before_label} className="mt-1" />
        <span>
          <strong>Show the AI verdict before labelling</strong>: annotators see the judge&apos;s verdict while choosing their own label. Off (recommended): it appears once they have picked a label, so it cannot anchor it.
        </span>
      </label>
      <label className="block">
        Annotators per debate (overlap)
        <input name="annotation_overlap" type="number" min={1} max={20} defaultValue={settings.annotation_overlap} className="ml-2 w-20 rounded-md border border-black/20 px-2 py-1" />
      </label>
      <label className="block">
        Annotation guidelines (markdown; shown beside every labeling task)
        <textarea name="annotation_guidelines" defaultValue={settings.annotation_guidelines} rows={12} className="mt-1 block w-full rounded-md border border-black/20 p-2 font-mono text-xs" />
      </label>
      <button type="submit" disabled={pending} className={button}>
        Save settings
      </button>
      <Feedback state={state} />
    </form>
  );
}
