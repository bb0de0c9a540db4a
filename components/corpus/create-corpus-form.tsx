"use client";

import { createCorpusAction, type FormState } from "@/app/corpora/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FormError } from "@/components/forms/form-errors";
import { CORPUS_NAME_RULE } from "@/lib/corpus/names";

export function CreateCorpusForm() {
  const { state, pending, formProps } = useServerForm<FormState>(createCorpusAction, {});
  return (
    <form {...formProps} className="flex flex-wrap items-end gap-2" noValidate>
      <label className="flex min-w-0 flex-col text-sm">
        New corpus name
        <input
          name="name"
          required
          maxLength={64}
          pattern="[A-Za-z0-9_\-]{1,64}"
          defaultValue={state.values?.name}
          aria-invalid={state.field === "name" || undefined}
          aria-describedby="corpus-name-help corpus-name-error"
          className="mt-1 rounded-md border border-black/20 bg-white p-1.5"
        />
      </label>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-ink px-3 py-1.5 text-sm font-medium text-white hover:bg-black disabled:opacity-60"
      >
        Create corpus
      </button>
      <p id="corpus-name-help" className="w-full text-xs text-black/60">
        {CORPUS_NAME_RULE}.
      </p>
      <p id="corpus-name-error" role="alert" className="w-full text-sm text-red-800 empty:hidden">
        {state.field === "name" ? state.error : ""}
      </p>
      <FormError state={state} shown={["name"]} className="w-full text-sm text-red-800" />
    </form>
  );
}
