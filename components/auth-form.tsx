"use client";

import type { AuthFormState } from "@/app/signin/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FormError } from "@/components/forms/form-errors";
import { TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";

export type AuthField = {
  name: string;
  label: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  hint?: string;
};

/**
 * One small form component for sign-in, set-up and invitations, so they behave alike. A refusal
 * keeps every field as typed (useServerForm) and is shown under the field it is about.
 */
export function AuthForm({
  action,
  fields,
  submit,
  hidden = {},
}: {
  action: (prev: AuthFormState, form: FormData) => Promise<AuthFormState>;
  fields: AuthField[];
  submit: string;
  hidden?: Record<string, string>;
}) {
  const { state, pending, formProps } = useServerForm(action, {});
  return (
    <form {...formProps} className="max-w-sm space-y-4">
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {fields.map((f) => (
        <TextField
          key={f.name}
          state={state}
          id={`auth-${f.name}`}
          name={f.name}
          label={f.label}
          hint={f.hint}
          type={f.type ?? "text"}
          autoComplete={f.autoComplete}
          required={f.required ?? true}
          className="text-sm font-medium"
          labelClassName="block"
          hintClassName="mt-1 block text-xs font-normal text-black/60"
          inputClassName="mt-1 block w-full rounded-md border border-black/20 bg-white px-2 py-1.5 text-base font-normal"
        />
      ))}
      <FormError
        state={state}
        shown={fields.map((f) => f.name)}
        className="rounded-md bg-red-50 p-2 text-sm text-red-900"
      />
      <SubmitButton
        pending={pending}
        busy="Working…"
        className="rounded-md bg-ink px-4 py-2 text-sm font-medium text-white hover:bg-black disabled:opacity-60"
      >
        {submit}
      </SubmitButton>
    </form>
  );
}
