"use client";

import { createTokenAction, type TokenFormState } from "@/app/account/tokens/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FormError } from "@/components/forms/form-errors";
import { ChoiceGroup, SelectField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";
import { listOf } from "@/lib/forms/state";

const INITIAL: TokenFormState = {};
const EXPIRES = [
  { value: "30", label: "in 30 days" },
  { value: "90", label: "in 90 days" },
  { value: "365", label: "in a year" },
  { value: "never", label: "never" },
];
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
  const text = { state, inputClassName: input };
  return (
    <form {...formProps} className="space-y-3" noValidate>
      <TextField {...text} name="name" label="Name" required maxLength={80} placeholder="e.g. CMS, tipline bot" />
      {people ? (
        <SelectField
          {...text}
          name="userId"
          label="Acts for"
          defaultValue={me}
          options={people.map((p) => ({ value: p.id, label: `${p.email}${p.id === me ? " (you)" : ""}` }))}
        />
      ) : null}
      <ChoiceGroup
        state={state}
        name="scope"
        legend="What it may do besides reading"
        className="space-y-1 text-sm"
        chosen={ticked}
        before={scopes.length === 0 ? <p className="text-black/60">Your roles allow reading only.</p> : null}
        options={scopes.map((s) => ({
          value: s.name,
          label: (
            <>
              {s.words} <code className="text-xs text-black/60">{s.name}</code>
            </>
          ),
        }))}
      />
      <SelectField {...text} name="expires" label="Expires" defaultValue="90" options={EXPIRES} />
      <SubmitButton pending={pending} look="secondary">
        Create token
      </SubmitButton>
      <FormError state={state} shown={people ? ["name", "scope", "userId"] : ["name", "scope"]} />
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
