"use client";

import { reembedCorpusAction, type FormState } from "@/app/corpora/actions";
import { useServerForm } from "@/components/forms/use-server-form";
import { SelectField } from "@/components/ui/field";
import { Outcome, SubmitButton } from "@/components/ui/button";

/** Re-embeds the corpus with another model; the job appears in the list above with its progress. */
export function ReembedForm({ corpus, models }: { corpus: string; models: string[] }) {
  const { state, pending, formProps } = useServerForm<FormState>(reembedCorpusAction, {});
  if (models.length === 0) return null;
  return (
    <form {...formProps} className="flex flex-wrap items-center gap-2 text-sm" data-testid="reembed-form">
      <input type="hidden" name="corpus" value={corpus} />
      <SelectField
        state={state}
        id="reembed-model"
        name="model"
        label="Re-embed with"
        defaultValue={models[0]}
        options={models.map((m) => ({ value: m, label: m }))}
        className="contents"
        labelClassName="text-black/70"
        inputClassName="max-w-full rounded-md border border-black/20 bg-white px-2 py-1 font-mono text-xs"
      />
      <SubmitButton pending={pending} busy="Starting…">
        Re-embed
      </SubmitButton>
      <Outcome
        state={state}
        shown={["model"]}
        as="span"
        errorClassName="text-red-800"
        messageClassName="text-black/70"
      />
    </form>
  );
}
