import path from "node:path";
import { z } from "zod";
import type { Database } from "@/db/client";
import { readModelSettings } from "@/db/queries/model-settings";
import { applyModelOverlay, getEnvConfig } from "@/lib/config";
import { checkModel, type Check } from "@/lib/doctor";
import { modelIdSchema } from "./model-id";
import { openModelSettings, overlayOf, parseStored, type ModelSettings } from "./model-settings";
import { configuredModelIds } from "./registry";

/**
 * The Admin page's model settings form: what it posts, checked field by field (a refusal names the
 * field), turned into the settings to save. A key field left empty keeps the saved key; its
 * "remove" box deletes it. Keys never come back to the page: only whether one is set and its end.
 */

/** Form fields that carry a key: never echoed back to the browser, even in a refusal. */
export const isKeyField = (name: string) => name.endsWith("_api_key");

/** OpenAI-compatible server rows the form may post (the saved ones plus one to add). */
const MAX_SERVERS = 20;

export class ModelSettingsInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
const opt = (v: string) => (v === "" ? undefined : v);

function modelId(form: FormData, field: string, what: string): string | undefined {
  const v = text(form, field);
  if (!v) return undefined;
  const r = modelIdSchema.safeParse(v);
  if (!r.success) throw new ModelSettingsInputError(`${what}: ${r.error.issues[0]?.message}.`, field);
  return v;
}

const httpUrl = z.url({ protocol: /^https?$/ });
function baseUrl(form: FormData, field: string, what: string): string | undefined {
  const v = text(form, field);
  if (!v) return undefined;
  if (!httpUrl.safeParse(v).success)
    throw new ModelSettingsInputError(
      `${what} must be an http(s) address such as http://127.0.0.1:11434/v1; got "${v.slice(0, 80)}".`,
      field,
    );
  return v;
}

/** A key field: a new key, or the saved one kept, or none when "remove" is ticked. */
function key(form: FormData, field: string, saved: string | undefined): string | undefined {
  if (form.get(`${field}_remove`) === "on") return undefined;
  const v = text(form, field);
  if (/\s/.test(v)) throw new ModelSettingsInputError("A key has no spaces in it; paste it again.", field);
  if (v.length > 500)
    throw new ModelSettingsInputError("That is longer than any provider's key; paste it again.", field);
  return v || saved;
}

function roleModels(form: FormData): Record<string, string> | undefined {
  const raw = text(form, "role_models");
  if (!raw) return undefined;
  const out: Record<string, string> = {};
  for (const part of raw
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf("=");
    const role = eq > 0 ? part.slice(0, eq).trim() : "";
    const id = eq > 0 ? part.slice(eq + 1).trim() : "";
    if (!/^[a-z][a-z0-9-]{0,40}$/.test(role) || !id)
      throw new ModelSettingsInputError(
        `Models per role: write role=model id, comma-separated (e.g. judge=openai:gpt-4o); "${part.slice(0, 80)}" is not that.`,
        "role_models",
      );
    const r = modelIdSchema.safeParse(id);
    if (!r.success)
      throw new ModelSettingsInputError(`Models per role, ${role}: ${r.error.issues[0]?.message}.`, "role_models");
    out[role] = id;
  }
  return out;
}

function webModels(form: FormData): string[] | undefined {
  const ids = text(form, "web_models")
    .split(/[,\s]+/)
    .filter(Boolean);
  for (const id of ids) {
    const r = modelIdSchema.safeParse(id);
    if (!r.success)
      throw new ModelSettingsInputError(`More models for the forms: ${r.error.issues[0]?.message}.`, "web_models");
  }
  return ids.length ? ids : undefined;
}

/** The settings the form asks for, given the saved ones (whose keys a blank key field keeps). */
export function parseModelSettingsForm(form: FormData, saved: ModelSettings): ModelSettings {
  const savedServers = new Map((saved.compatible ?? []).map((c) => [c.name, c]));
  const compatible: NonNullable<ModelSettings["compatible"]> = [];
  const count = Math.min(Number(text(form, "compat_count")) || 0, MAX_SERVERS);
  for (let i = 0; i < count; i++) {
    const f = (name: string) => `compat_${i}_${name}`;
    const name = text(form, f("name")).toLowerCase();
    const url = baseUrl(form, f("base_url"), "The server's address");
    if (!name && !url) continue; // an empty row: nothing to add, or a server removed
    if (!/^[a-z][a-z0-9-]{0,30}$/.test(name))
      throw new ModelSettingsInputError(
        "A server's name is a short word of lower-case letters, digits and dashes, such as ollama; models are then named openai-compatible:<name>.",
        f("name"),
      );
    if (!url)
      throw new ModelSettingsInputError(
        `The server "${name}" needs its address, e.g. http://127.0.0.1:11434/v1.`,
        f("base_url"),
      );
    if (compatible.some((c) => c.name === name))
      throw new ModelSettingsInputError(`Two servers are named "${name}"; give each its own name.`, f("name"));
    // A renamed server keeps its key: the row says which saved server it was.
    const was = savedServers.get(text(form, f("was")));
    compatible.push({
      name,
      baseURL: url,
      key: key(form, f("api_key"), was?.key),
      model: opt(text(form, f("model"))),
      logprobs: form.get(f("logprobs")) === "on",
    });
  }
  const localPath = text(form, "local_model_path");
  if (localPath && !path.isAbsolute(localPath))
    throw new ModelSettingsInputError(
      `The model file is a full path on the server, such as /srv/models/qwen2.5-1.5b-instruct-q4_k_m.gguf; got "${localPath.slice(0, 80)}".`,
      "local_model_path",
    );
  return {
    defaultModel: modelId(form, "default_model", "Default model"),
    roleModels: roleModels(form),
    webModels: webModels(form),
    openai: {
      key: key(form, "openai_api_key", saved.openai?.key),
      baseURL: baseUrl(form, "openai_base_url", "The OpenAI address"),
    },
    anthropic: {
      key: key(form, "anthropic_api_key", saved.anthropic?.key),
      baseURL: baseUrl(form, "anthropic_base_url", "The Anthropic address"),
    },
    compatible,
    localModelPath: opt(localPath),
  };
}

/**
 * Every model the settings would put in use (default and per role), each checked with a one-token
 * call as `counterpoint doctor` does, before anything is saved. A local model whose file is not
 * here yet is reported, not refused: the file comes later (downloaded, or copied in).
 */
export async function checkModelSettings(settings: ModelSettings): Promise<Check[]> {
  const config = applyModelOverlay(getEnvConfig(), overlayOf(settings));
  return Promise.all(configuredModelIds(config).map((id) => checkModel(id, config)));
}

/** A key as the page may show it: whether one is saved, and its last characters. */
export type KeyView = { set: boolean; hint?: string };

/** Everything the Admin page shows about the model settings: no key, only whether one is set. */
export type ModelSettingsView = {
  saved: {
    defaultModel: string;
    roleModels: string;
    webModels: string;
    openai: { key: KeyView; baseURL: string };
    anthropic: { key: KeyView; baseURL: string };
    compatible: Array<{ name: string; baseURL: string; key: KeyView; model: string; logprobs: boolean }>;
    localModelPath: string;
  };
  /** What each field falls back to when left empty: the environment (keys: only whether set). */
  env: {
    defaultModel?: string;
    roleModels: string;
    webModels: string;
    openaiKey: boolean;
    openaiBaseURL?: string;
    anthropicKey: boolean;
    anthropicBaseURL?: string;
    compatible: string[];
    localModelPath?: string;
  };
  problems: string[];
};

const pairs = (r: Record<string, string> | undefined) =>
  Object.entries(r ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
const keyView = (k: { hint: string } | undefined): KeyView =>
  k ? { set: true, hint: k.hint || undefined } : { set: false };

function withoutCredentials(url: string) {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(not an address)";
  }
}

export async function modelSettingsView(db: Database): Promise<ModelSettingsView> {
  const { stored, problems } = parseStored(await readModelSettings(db));
  // Opened only to say which saved key this server cannot read; the keys stay here.
  if (stored) problems.push(...(await openModelSettings(db, stored)).problems);
  const env = getEnvConfig();
  return {
    saved: {
      defaultModel: stored?.defaultModel ?? "",
      roleModels: pairs(stored?.roleModels),
      webModels: (stored?.webModels ?? []).join(", "),
      openai: { key: keyView(stored?.openai?.key), baseURL: stored?.openai?.baseURL ?? "" },
      anthropic: { key: keyView(stored?.anthropic?.key), baseURL: stored?.anthropic?.baseURL ?? "" },
      compatible: (stored?.compatible ?? []).map((c) => ({
        name: c.name,
        baseURL: c.baseURL,
        key: keyView(c.key),
        model: c.model ?? "",
        logprobs: c.logprobs,
      })),
      localModelPath: stored?.localModelPath ?? "",
    },
    env: {
      defaultModel: env.models.default,
      roleModels: pairs(env.models.roles),
      webModels: (env.models.web ?? []).join(", "),
      openaiKey: !!env.openai.apiKey,
      openaiBaseURL: env.openai.baseURL,
      anthropicKey: !!env.anthropic.apiKey,
      anthropicBaseURL: env.anthropic.baseURL,
      compatible: Object.values(env.openaiCompatible).map((c) => `${c.name} (${withoutCredentials(c.baseURL)})`),
      localModelPath: env.local.modelPath,
    },
    problems,
  };
}
