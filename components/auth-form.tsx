"use client";

import type { AuthFormState } from "@/app/signin/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { errorId, FieldError, FormError } from "@/components/forms/form-errors";
import { errorFor } from "@/lib/forms/state";

type Field = { name: string; label: string; type?: string; autoComplete?: string; required?: boolean; hint?: string };

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
  fields: Field[];
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
        <div key={f.name} className="text-sm font-medium">
          <label htmlFor={`auth-${f.name}`} className="block">
            {f.label}
          </label>
          <input
            id={`auth-${f.name}`}
            aria-describedby={
              [f.hint ? `auth-${f.name}-hint` : "", errorFor(state, f.name) ? errorId(f.name) : ""]
                .filter(Boolean)
                .join(" ") || undefined
            }
            aria-invalid={errorFor(state, f.name) ? true : undefined}
            name={f.name}
            type={f.type ?? "text"}
            autoComplete={f.autoComplete}
            required={f.required ?? true}
            // Without JavaScript the page is rebuilt: what was typed comes back (never a password).
            defaultValue={f.type === "password" ? undefined : state.values?.[f.name]}
            className="mt-1 block w-full rounded-md border border-black/20 bg-white px-2 py-1.5 text-base font-normal"
          />
          {f.hint ? (
            <span id={`auth-${f.name}-hint`} className="mt-1 block text-xs font-normal text-black/60">
              {f.hint}
            </span>
          ) : null}
          <FieldError state={state} field={f.name} className="mt-1 text-sm font-normal text-red-800" />
        </div>
      ))}
      <FormError
        state={state}
        shown={fields.map((f) => f.name)}
        className="rounded-md bg-red-50 p-2 text-sm text-red-900"
      />
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-ink px-4 py-2 text-sm font-medium text-white hover:bg-black disabled:opacity-60"
      >
        {pending ? "Working…" : submit}
      </button>
    </form>
  );
}
