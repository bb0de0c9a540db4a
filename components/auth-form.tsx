"use client";

import { useActionState } from "react";
import type { AuthFormState } from "@/app/signin/actions";

type Field = { name: string; label: string; type?: string; autoComplete?: string; required?: boolean; hint?: string };

/** One small form component for sign-in, set-up and invitations, so they behave alike. */
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
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="max-w-sm space-y-4">
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
            aria-describedby={f.hint ? `auth-${f.name}-hint` : undefined}
            name={f.name}
            type={f.type ?? "text"}
            autoComplete={f.autoComplete}
            required={f.required ?? true}
            defaultValue={f.name === "email" ? state.email : undefined}
            className="mt-1 block w-full rounded-md border border-black/20 bg-white px-2 py-1.5 text-base font-normal"
          />
          {f.hint ? (
            <span id={`auth-${f.name}-hint`} className="mt-1 block text-xs font-normal text-black/60">
              {f.hint}
            </span>
          ) : null}
        </div>
      ))}
      {state.error ? (
        <p role="alert" className="rounded-md bg-red-50 p-2 text-sm text-red-900">
          {state.error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className="rounded-md bg-ink px-4 py-2 text-sm font-medium text-white hover:bg-black disabled:opacity-60">
        {pending ? "Working…" : submit}
      </button>
    </form>
  );
}
