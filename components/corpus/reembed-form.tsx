"use client";

import { reembedCorpusAction, type FormState } from "@/app/corpora/actions";
import { useServerForm } from "@/components/forms/use-server-form";

/** Re-embeds the corpus with another model; the job appears in the list above with its progress. */
export function ReembedForm({ corpus, models }: { corpus: string; models: string[] }) {
  const { state, pending, formProps } = useServerForm<FormState>(reembedCorpusAction, {});
  if (models.length === 0) return null;
  return (
    <form {...formProps} className="flex flex-wrap items-center gap-2 text-sm" data-testid="reembed-form">
      <input type="hidden" name="corpus" value={corpus} />
      <label htmlFor="reembed-model" className="text-black/70">
        Re-embed with
      </label>
      <select
        id="reembed-model"
        name="model"
        defaultValue={state.values?.model ?? models[0]}
        className="max-w-full rounded-md border border-black/20 bg-white px-2 py-1 font-mono text-xs"
      >
        {models.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-ink px-3 py-1 font-medium text-white hover:bg-black disabled:opacity-60"
      >
        {pending ? "Starting…" : "Re-embed"}
      </button>
      {state.error ? (
        <span role="alert" className="text-red-800">
          {state.error}
        </span>
      ) : state.message ? (
        <span role="status" className="text-black/70">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
