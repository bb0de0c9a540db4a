"use client";

import { useActionState, useState } from "react";
import { createRunAction, type NewRunState } from "@/app/eval/new/actions";
import { RADAR_VARIANTS } from "@/lib/debate/radar/variants";
import { DEFAULT_METHOD, methodDefinitions } from "@/lib/debate/methods";
import { ModelSelect } from "@/components/debate/model-select";
import { formatFileLimit, MAX_CLAIMS_FILE_BYTES } from "@/lib/eval/limits";

/** Every registered method, in its definition's words. */
const PROTOCOL_CHOICES = methodDefinitions().map((d) => [d.name, d.input === "article" ? `${d.title} (news articles)` : d.title] as const);

const input = "mt-1 w-full min-w-0 rounded-md border border-black/20 bg-white p-2";

/**
 * The claims file goes to the upload route first (streamed to disk; server action bodies are
 * limited to 1 MB), then the form's other fields go to the action with the upload's id.
 */
async function uploadThenCreate(prev: NewRunState, form: FormData): Promise<NewRunState> {
  const file = form.get("claims");
  if (file instanceof File && file.size > 0) {
    if (file.size > MAX_CLAIMS_FILE_BYTES) return { error: `${file.name} is larger than the ${formatFileLimit()} limit for claims files. Split it, or run it with npx counterpoint eval --claims <file>.` };
    const res = await fetch(`/api/eval/uploads?filename=${encodeURIComponent(file.name)}`, { method: "POST", body: file }).catch(() => null);
    if (!res) return { error: "The claims file could not be sent: the server did not answer. Check the connection and try again." };
    const body = (await res.json().catch(() => ({}))) as { upload?: string; error?: string };
    if (!res.ok || !body.upload) return { error: body.error ?? `The claims file could not be stored (HTTP ${res.status}).` };
    form.delete("claims");
    form.set("upload", body.upload);
  }
  return createRunAction(prev, form);
}

export function NewRunForm({ corpora, models = [], defaultModel }: { corpora: string[]; models?: string[]; defaultModel?: string }) {
  const [state, action, pending] = useActionState<NewRunState, FormData>(uploadThenCreate, {});
  const [evidence, setEvidence] = useState("gold");
  const [protocols, setProtocols] = useState<string[]>([DEFAULT_METHOD]);
  return (
    <form action={action} className="grid max-w-3xl gap-4 sm:grid-cols-2">
      {state.error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 sm:col-span-2" data-testid="eval-error">
          {state.error}
        </p>
      ) : null}
      <label className="text-sm sm:col-span-2">
        Claims file (JSONL, up to {formatFileLimit()})
        <input name="claims" type="file" accept=".jsonl,application/jsonl,application/x-ndjson" required className={input} />
      </label>
      <fieldset className="text-sm sm:col-span-2" data-testid="eval-protocols">
        <legend>Methods</legend>
        <p className="text-xs text-black/60">RADAR alone makes one run. Tick two or more to compare them: one run each over the same claims, then a page that ranks them by accuracy and cost. Methods that search for their own evidence (Tool-MAD, ZoFia, PROClaim) search the corpus chosen below, or every corpus.</p>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {PROTOCOL_CHOICES.map(([value, label]) => (
            <label key={value} className="inline-flex items-center gap-1">
              <input type="checkbox" name="protocols" value={value} checked={protocols.includes(value)} onChange={(e) => setProtocols((xs) => (e.target.checked ? [...xs, value] : xs.filter((x) => x !== value)))} />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="text-sm">
        Run name <input name="name" className={input} />
      </label>
      <label className="text-sm">
        Dataset name <input name="dataset" placeholder="from the file name" className={input} />
      </label>
      <label className="text-sm">
        Evidence
        <select name="evidence" value={evidence} onChange={(e) => setEvidence(e.target.value)} className={input}>
          <option value="gold">gold evidence from the file</option>
          <option value="supplied">supplied evidence from the file (e.g. the authors&apos; top-20)</option>
          <option value="retrieved" disabled={!corpora.length}>
            retrieved from a corpus
          </option>
        </select>
      </label>
      {evidence === "retrieved" ? (
        <label className="text-sm">
          Corpus
          <select name="corpus" className={input}>
            {corpora.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      ) : (
        <span className="hidden sm:block" />
      )}
      <label className="text-sm">
        Variant
        <select name="variant" defaultValue="expertise" className={input}>
          {RADAR_VARIANTS.map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </label>
      <label className="text-sm">
        Early stopping
        <select name="earlyStopping" defaultValue="on" className={input}>
          <option value="on">on</option>
          <option value="score-only">score every checkpoint, never stop (for calibration)</option>
          <option value="off">off</option>
        </select>
      </label>
      <label className="text-sm">
        Judge model <ModelSelect id="model_judge" name="model_judge" allowed={models} fallback={defaultModel} className={input} />
      </label>
      <label className="text-sm">
        Debaters&apos; model <ModelSelect id="model_debaters" name="model_debaters" allowed={models} fallback={defaultModel} className={input} />
      </label>
      <label className="text-sm">
        Limit (claims) <input name="limit" type="number" min={1} className={input} />
      </label>
      <label className="text-sm">
        Sample
        <select name="sample" defaultValue="" className={input}>
          <option value="">first claims, in file order</option>
          <option value="balanced">balanced across labels</option>
          <option value="random">random</option>
        </select>
      </label>
      <label className="text-sm">
        Seed <input name="seed" type="number" defaultValue={1} className={input} />
      </label>
      <label className="text-sm">
        Budget: tokens <input name="budgetTokens" type="number" min={1} className={input} />
      </label>
      <label className="text-sm">
        Budget: US dollars <input name="budgetUsd" type="number" min={0} step="0.01" className={input} />
      </label>
      <div className="sm:col-span-2">
        <button type="submit" disabled={pending} className="rounded-md bg-ink px-4 py-2 font-medium text-white disabled:opacity-60">
          {pending ? "Creating…" : protocols.length > 1 ? `Compare ${protocols.length} methods` : "Start the run"}
        </button>
      </div>
    </form>
  );
}
