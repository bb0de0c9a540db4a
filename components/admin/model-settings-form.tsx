"use client";

import { modelSettingsAction, type AdminState } from "@/app/admin/actions";
import type { KeyView, ModelSettingsView } from "@/lib/ai/model-settings-form";
import { useServerForm } from "@/components/forms/use-server-form";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { CheckboxField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";

const INITIAL: AdminState = {};
const input = "mt-1 block w-full rounded-md border border-black/20 bg-white px-2 py-1.5 font-normal";
const note = "mt-0.5 break-words text-xs text-black/60";

/** "set, ends in …a1b2": the page only ever knows whether a key is saved, never the key. */
function keyWords(k: KeyView) {
  return k.set ? (k.hint ? `set, ends in …${k.hint}` : "set") : "not set";
}

/** What an empty field falls back to. */
function fallback(value?: string) {
  return <>Empty: {value ? <>the environment&apos;s {value}</> : "nothing (not set in the environment either)"}.</>;
}

/** One provider's settings: its key and, for a proxy or gateway, its address. */
function ProviderBlock({
  state,
  provider,
  title,
  saved,
  envKey,
  envBaseURL,
  placeholder,
}: {
  state: AdminState;
  provider: "openai" | "anthropic";
  title: string;
  saved: { key: KeyView; baseURL: string };
  envKey: boolean;
  envBaseURL?: string;
  placeholder: string;
}) {
  return (
    <fieldset className="space-y-2 rounded-md border border-black/10 p-3">
      <legend className="px-1 font-semibold">{title}</legend>
      <KeyField name={`${provider}_api_key`} label="API key" saved={saved.key} envSet={envKey} />
      <FieldError state={state} field={`${provider}_api_key`} />
      <TextField
        state={state}
        name={`${provider}_base_url`}
        label="Address (only for a proxy or gateway)"
        labelClassName="block font-medium"
        inputClassName={input}
        hintClassName={note}
        defaultValue={saved.baseURL}
        placeholder={placeholder}
        hint={fallback(envBaseURL)}
      />
    </fieldset>
  );
}

/**
 * A key field: empty keeps the saved key (typing replaces it), the box removes it. The browser keeps
 * what was typed after a refusal (the form is not reset); the server never sends a key back.
 */
function KeyField({ name, label, saved, envSet }: { name: string; label: string; saved: KeyView; envSet: boolean }) {
  return (
    <div>
      <label className="block font-medium">
        {label} <span className="whitespace-nowrap font-normal text-black/60">({keyWords(saved)})</span>
        <input
          name={name}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={saved.set ? "leave empty to keep it" : "paste the key"}
          className={input}
        />
      </label>
      {saved.set ? (
        <label className="mt-1 flex items-center gap-1 text-xs">
          <input type="checkbox" name={`${name}_remove`} /> Remove the saved key
        </label>
      ) : null}
      <p className={note}>
        Empty: {envSet ? "the key set in the environment" : "no key (none in the environment either)"}.
      </p>
    </div>
  );
}

export function ModelSettingsForm({ view }: { view: ModelSettingsView }) {
  const { state, pending, formProps } = useServerForm(modelSettingsAction, INITIAL);
  const text = { state, labelClassName: "block font-medium", inputClassName: input, hintClassName: note };
  const compat = { ...text, labelClassName: "block" };
  const servers = [
    ...view.saved.compatible,
    { name: "", baseURL: "", key: { set: false } as KeyView, model: "", logprobs: true },
  ];
  const fields = [
    "default_model",
    "role_models",
    "web_models",
    "openai_base_url",
    "anthropic_base_url",
    "local_model_path",
    ...servers.flatMap((_, i) => ["name", "base_url", "api_key", "model"].map((f) => `compat_${i}_${f}`)),
    "openai_api_key",
    "anthropic_api_key",
  ];
  return (
    <form {...formProps} className="max-w-2xl space-y-4 text-sm" noValidate data-testid="model-settings">
      <p className="text-black/70">
        Saved here, a setting is in use at once on every server and worker: no restart. It wins over the server&apos;s
        environment; a field left empty uses the environment&apos;s value (shown under it). Before saving, each model
        chosen answers a one-token test call.
      </p>
      {view.problems.length ? (
        <ul className="list-disc rounded-md bg-red-50 p-3 pl-8 text-red-900">
          {view.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {[
        {
          name: "default_model",
          label: "Default model",
          defaultValue: view.saved.defaultModel,
          placeholder: "e.g. openai:gpt-4o-mini",
          hint: (
            <>
              openai:&lt;model&gt;, anthropic:&lt;model&gt;, openai-compatible:&lt;server&gt; or local:&lt;preset&gt;.
              <br />
              {fallback(view.env.defaultModel && `DEFAULT_MODEL=${view.env.defaultModel}`)}
            </>
          ),
        },
        {
          name: "role_models",
          label: "Models per role",
          defaultValue: view.saved.roleModels,
          placeholder: "e.g. judge=openai:gpt-4o, debater=openai:gpt-4o-mini",
          hint: fallback(view.env.roleModels && `ROLE_MODELS=${view.env.roleModels}`),
        },
        {
          name: "web_models",
          label: "More models the debate forms offer",
          defaultValue: view.saved.webModels,
          placeholder: "comma-separated model ids",
          hint: <>Added to the environment&apos;s WEB_MODELS{view.env.webModels ? ` (${view.env.webModels})` : ""}.</>,
        },
      ].map((f) => (
        <TextField key={f.name} {...text} {...f} />
      ))}

      {(
        [
          [
            "openai",
            "OpenAI",
            view.env.openaiKey,
            "OPENAI_BASE_URL",
            view.env.openaiBaseURL,
            "https://api.openai.com/v1",
          ],
          [
            "anthropic",
            "Anthropic",
            view.env.anthropicKey,
            "ANTHROPIC_BASE_URL",
            view.env.anthropicBaseURL,
            "https://api.anthropic.com/v1",
          ],
        ] as const
      ).map(([provider, title, envKey, envName, envURL, placeholder]) => (
        <ProviderBlock
          key={provider}
          state={state}
          provider={provider}
          title={title}
          saved={view.saved[provider]}
          envKey={envKey}
          envBaseURL={envURL && `${envName}=${envURL}`}
          placeholder={placeholder}
        />
      ))}

      <fieldset className="space-y-3 rounded-md border border-black/10 p-3">
        <legend className="px-1 font-semibold">Servers that speak the OpenAI API (Ollama, vLLM, llama.cpp)</legend>
        <p className={note}>
          A model there is named openai-compatible:&lt;name&gt; (its default model) or
          openai-compatible:&lt;name&gt;/&lt;model&gt;. Clear a server&apos;s name and address to remove it.
          {view.env.compatible.length ? ` From the environment: ${view.env.compatible.join(", ")}.` : ""}
        </p>
        <input type="hidden" name="compat_count" value={servers.length} />
        {servers.map((s, i) => {
          const f = (n: string) => `compat_${i}_${n}`;
          return (
            <div
              key={s.name || `new-${i}`}
              className="space-y-2 border-t border-black/10 pt-2 first:border-0 first:pt-0"
              data-testid="compat-server"
            >
              <p className="font-medium">{s.name ? `Server "${s.name}"` : "Add a server"}</p>
              <input type="hidden" name={f("was")} value={s.name} />
              <div className="grid gap-2 sm:grid-cols-2">
                {[
                  { field: "name", label: "Name", saved: s.name, placeholder: "e.g. ollama" },
                  { field: "base_url", label: "Address", saved: s.baseURL, placeholder: "http://127.0.0.1:11434/v1" },
                  {
                    field: "model",
                    label: "Model (when the id names none)",
                    saved: s.model,
                    placeholder: "e.g. llama3.1:8b",
                  },
                ].map((c) => (
                  <TextField
                    key={c.field}
                    {...compat}
                    name={f(c.field)}
                    label={c.label}
                    defaultValue={c.saved}
                    placeholder={c.placeholder}
                  />
                ))}
                <div>
                  <KeyField name={f("api_key")} label="Key (if the server wants one)" saved={s.key} envSet={false} />
                  <FieldError state={state} field={f("api_key")} />
                </div>
              </div>
              <CheckboxField
                state={state}
                name={f("logprobs")}
                checked={s.logprobs}
                className="flex items-center gap-1"
                boxClassName=""
                label="It returns token probabilities (vLLM, llama.cpp and Ollama do)"
              />
            </div>
          );
        })}
      </fieldset>

      <fieldset className="space-y-2 rounded-md border border-black/10 p-3">
        <legend className="px-1 font-semibold">A model file on this server (GGUF)</legend>
        <TextField
          {...text}
          name="local_model_path"
          label="Path of the file, used by local: models"
          defaultValue={view.saved.localModelPath}
          placeholder="/srv/models/qwen2.5-1.5b-instruct-q4_k_m.gguf"
          hint={fallback(
            view.env.localModelPath
              ? `LOCAL_MODEL_PATH=${view.env.localModelPath}`
              : "model cache (presets named local:<preset> are looked up there)",
          )}
        />
      </fieldset>

      <SubmitButton
        pending={pending}
        busy="Checking the models…"
        className="rounded-md bg-ink px-4 py-2 font-medium text-white hover:bg-black disabled:opacity-60"
      >
        Check and save
      </SubmitButton>
      <FormError state={state} shown={fields} className="rounded-md bg-red-50 p-3 text-sm text-red-900" />
      {state.message && !state.error ? (
        <p role="status" className="text-sm text-green-900" data-testid="model-settings-saved">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
