"use client";

import { inviteAction, setRolesAction, settingsAction, type AdminState } from "@/app/admin/actions";
import type { Settings } from "@/db/queries/settings";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { CheckboxField, ChoiceGroup, NumberField, TextAreaField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";
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

/** The roles as boxes: in a user's row (inline, its refusal said after the button), or under a legend. */
function RoleChoice({
  state,
  allRoles,
  ticked,
  inline = false,
}: {
  state: AdminState;
  allRoles: string[];
  ticked: string[];
  inline?: boolean;
}) {
  return (
    <ChoiceGroup
      state={state}
      name="role"
      legend="Roles"
      options={allRoles.map((r) => ({ value: r, label: r }))}
      chosen={ticked}
      className={inline ? "flex flex-wrap items-center gap-3" : "flex flex-wrap gap-3 text-sm"}
      legendClassName={inline ? "sr-only" : "mb-1 font-medium"}
      itemClassName="flex items-center gap-1"
      boxClassName=""
      quiet={inline}
    />
  );
}

export function RolesForm({ userId, roles, allRoles }: { userId: string; roles: string[]; allRoles: string[] }) {
  const { state, pending, formProps } = useServerForm(setRolesAction, INITIAL);
  const ticked = listOf(state, "role") ?? roles;
  return (
    <form {...formProps} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="userId" value={userId} />
      <RoleChoice state={state} allRoles={allRoles} ticked={ticked} inline />
      <SubmitButton pending={pending} className={button}>
        Save roles
      </SubmitButton>
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
      <TextField
        state={state}
        name="email"
        type="email"
        label="Email"
        required
        inputClassName="mt-1 block w-full max-w-sm rounded-md border border-black/20 bg-white px-2 py-1.5 font-normal"
      />
      <RoleChoice state={state} allRoles={allRoles} ticked={ticked} />
      <SubmitButton pending={pending} className={button}>
        Create invitation link
      </SubmitButton>
      <Feedback state={state} shown={["email", "role"]} />
    </form>
  );
}

/** The newsroom's on/off settings: the setting, its name, and what on and off mean. */
const SETTING_SWITCHES = [
  [
    "public_reading",
    "Public newsroom page",
    "anyone can read debates and corpora without signing in. Off: only signed-in people (and holders of a share link).",
  ],
  [
    "blind_annotation",
    "Blind annotation",
    "annotators see nobody else's labels on a debate until they have submitted their own.",
  ],
  [
    "show_verdict_before_label",
    "Show the AI verdict before labelling",
    "annotators see the judge's verdict while choosing their own label. Off (recommended): it appears once they have picked a label, so it cannot anchor it.",
  ],
  [
    "fact_check_second_approval",
    "A second person approves every fact-check",
    "an editor sends a fact-check for review and another editor, who wrote none of it, approves and publishes it. Off: an editor publishes their own.",
  ],
] as const satisfies ReadonlyArray<readonly [keyof Settings, string, string]>;

/** The newsroom's numbers, with the range the browser helps with (the server checks it again). */
const SETTING_NUMBERS = [
  {
    name: "match_threshold",
    label: "Claim matching: how similar an earlier check must be to be shown before a debate starts (0 to 1)",
    step: "0.05",
    min: 0,
    max: 1,
  },
  {
    name: "match_date_window_days",
    label: "Claim matching: checks of claims more than this many days apart are flagged as possibly another event",
    min: 1,
    max: 36500,
  },
  { name: "annotation_overlap", label: "Annotators per debate (overlap)", min: 1, max: 20 },
  {
    name: "live_flag_threshold",
    label:
      "Live desk: a sentence scoring at least this for check-worthiness (0 to 1) sends the webhook live.claim_flagged",
    step: "0.05",
    min: 0,
    max: 1,
  },
] as const satisfies ReadonlyArray<{ name: keyof Settings; label: string; min: number; max: number; step?: string }>;

export function SettingsForm({ settings }: { settings: Settings }) {
  const { state, pending, formProps } = useServerForm(settingsAction, INITIAL);
  const number = {
    state,
    labelClassName: "block",
    inputClassName: "mt-1 block w-24 rounded-md border border-black/20 px-2 py-1",
  };
  return (
    <form {...formProps} className="max-w-2xl space-y-3 text-sm" noValidate>
      {SETTING_SWITCHES.map(([name, title, words]) => (
        <CheckboxField
          key={name}
          state={state}
          name={name}
          checked={settings[name]}
          label={
            <>
              <strong>{title}</strong>: {words}
            </>
          }
        />
      ))}
      {SETTING_NUMBERS.map(({ name, label, ...range }) => (
        <NumberField key={name} {...number} {...range} name={name} label={label} defaultValue={settings[name]} />
      ))}
      <TextAreaField
        state={state}
        name="annotation_guidelines"
        label="Annotation guidelines (markdown; shown beside every labeling task)"
        labelClassName="block"
        defaultValue={settings.annotation_guidelines}
        rows={12}
        inputClassName="mt-1 block w-full rounded-md border border-black/20 p-2 font-mono text-xs"
      />
      <SubmitButton pending={pending} className={button}>
        Save settings
      </SubmitButton>
      <Feedback
        state={state}
        shown={[
          "match_threshold",
          "match_date_window_days",
          "annotation_overlap",
          "live_flag_threshold",
          "annotation_guidelines",
        ]}
      />
    </form>
  );
}
