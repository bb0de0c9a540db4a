"use client";

import { createTokenAction, type TokenFormState } from "@/app/account/tokens/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { listOf } from "@/lib/forms/state";

const INITIAL: TokenFormState = {};
const button = "rounded-md border border-black/20 bg-white px-3 py-1.5 text-sm hover:bg-black/5 disabled:opacity-60";
const input = "mt-1 block w-full max-w-sm rounded-md border border-black/20 bg-white px-2 py-1.5 font-normal";

/**
 * Makes a token. The new token comes back in the action's state and is shown here once, with
 * what to do with it; the form keeps what was entered after a refusal (useServerForm).
 */
export function CreateTokenForm({
  scopes,
  people,
  me,
}: {
  scopes: Array<{ name: string; words: string }>;
  /** For admins: whom the token may act for. */
  people: Array<{ id: string; email: string }> | null;
  me: string;
}) {
  const { state, pending, formProps } = useServerForm(createTokenAction, INITIAL);
  const ticked = listOf(state, "scope") ?? [];
  return (
    <form {...formProps} className="space-y-3" noValidate>
      <label className="block text-sm font-medium">
        Name
        <input
          name="name"
          required
          maxLength={80}
          placeholder="e.g. CMS, tipline bot"
          defaultValue={state.values?.name}
          aria-invalid={state.field === "name" || undefined}
          className={input}
        />
      </label>
      <FieldError state={state} field="name" />
      {people ? (
        <label className="block text-sm font-medium">
          Acts for
          <select name="userId" defaultValue={state.values?.userId ?? me} className={input}>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.email}
                {p.id === me ? " (you)" : ""}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <FieldError state={state} field="userId" />
      <fieldset className="space-y-1 text-sm">
        <legend className="mb-1 font-medium">What it may do besides reading</legend>
        {scopes.length === 0 ? <p className="text-black/60">Your roles allow reading only.</p> : null}
        {scopes.map((s) => (
          <label key={s.name} className="flex items-start gap-2">
            <input
              type="checkbox"
              name="scope"
              value={s.name}
              defaultChecked={ticked.includes(s.name)}
              className="mt-1"
            />
            <span>
              {s.words} <code className="text-xs text-black/60">{s.name}</code>
            </span>
          </label>
        ))}
        <FieldError state={state} field="scope" />
      </fieldset>
      <label className="block text-sm font-medium">
        Expires
        <select name="expires" defaultValue={state.values?.expires ?? "90"} className={input}>
          <option value="30">in 30 days</option>
          <option value="90">in 90 days</option>
          <option value="365">in a year</option>
          <option value="never">never</option>
        </select>
      </label>
      <button type="submit" disabled={pending} className={button}>
        Create token
      </button>
      <FormError state={state} shown={["name", "scope", "userId"]} />
      {state.token ? (
        <div role="status" className="space-y-2 rounded-md bg-green-50 p-3 text-sm text-green-950">
          <p>{state.message}</p>
          <code data-testid="new-token" className="block break-all rounded bg-white px-2 py-1 font-mono">
            {state.token}
          </code>
          <p>
            Send it as <code className="break-all">Authorization: Bearer {"<token>"}</code>; the API is described at{" "}
            <a className="underline" href="/api/v1/openapi.json">
              /api/v1/openapi.json
            </a>
            .
          </p>
        </div>
      ) : null}
    </form>
  );
}
