"use client";

import { createCorpusAction, type FormState } from "@/app/corpora/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { FormError } from "@/components/forms/form-errors";
import { TextField } from "@/components/ui/field";
import { LOOKS, SubmitButton } from "@/components/ui/button";
import { CORPUS_NAME_RULE } from "@/lib/corpus/names";

export function CreateCorpusForm() {
  const { state, pending, formProps } = useServerForm<FormState>(createCorpusAction, {});
  return (
    <form {...formProps} className="flex flex-wrap items-start gap-2" noValidate>
      <TextField
        state={state}
        id="corpus-name"
        name="name"
        label="New corpus name"
        required
        maxLength={64}
        pattern="[A-Za-z0-9_\-]{1,64}"
        hint={`${CORPUS_NAME_RULE}.`}
        className="flex min-w-0 flex-col text-sm"
        labelClassName=""
        hintClassName="w-full text-xs text-black/60"
        inputClassName="mt-1 rounded-md border border-black/20 bg-white p-1.5"
      />
      {/* Level with the field, under its label. */}
      <SubmitButton pending={pending} className={`${LOOKS.primary} mt-6`}>
        Create corpus
      </SubmitButton>
      <FormError state={state} shown={["name"]} className="w-full text-sm text-red-800" />
    </form>
  );
}
