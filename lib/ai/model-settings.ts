import { z } from "zod";
import type { Database } from "@/db/client";
import { readModelSettings, writeModelSettings } from "@/db/queries/model-settings";
import type { ModelOverlay, OpenAICompatibleConfig } from "@/lib/config";
import { peekProcessGlobal, setProcessGlobal } from "@/lib/process/globals";
import { seal, unseal } from "@/lib/secret-box";

/**
 * The model settings an admin saves on /admin: provider keys and addresses, the default model and
 * per-role choices. Stored in one settings row with every key sealed (lib/secret-box.ts, the same
 * encryption as webhook secrets, with a key of its own); decrypted only into this process's memory,
 * where getConfig() lays them over the environment. A save reaches every process at once: the
 * saver reloads, then signals the others through the PostgreSQL event bus (LISTEN/NOTIFY), which
 * reload from the row; on PGlite there is only this process.
 */

/** The bus channel that says "the model settings changed; read them again". */
export const MODEL_SETTINGS_SIGNAL = "cp_model_settings";

const PURPOSE = "counterpoint model provider keys v1";
const UNREADABLE =
  "could not be decrypted with this server's key (was FENCE_SECRET changed, or set or unset, since it was saved?). Restore FENCE_SECRET, or enter the key again on the Admin page.";

/** A key as stored: sealed, with its last characters to show ("set, ends in …a1b2"). */
const sealedKey = z.object({ sealed: z.string().min(1), hint: z.string().max(8) });
const storedSchema = z.object({
  version: z.literal(1),
  defaultModel: z.string().optional(),
  roleModels: z.record(z.string(), z.string()).optional(),
  webModels: z.array(z.string()).optional(),
  openai: z.object({ key: sealedKey.optional(), baseURL: z.string().optional() }).optional(),
  anthropic: z.object({ key: sealedKey.optional(), baseURL: z.string().optional() }).optional(),
  compatible: z
    .array(
      z.object({
        name: z.string(),
        baseURL: z.string(),
        key: sealedKey.optional(),
        model: z.string().optional(),
        logprobs: z.boolean(),
      }),
    )
    .optional(),
  localModelPath: z.string().optional(),
});
export type StoredModelSettings = z.infer<typeof storedSchema>;

/** The same settings with keys in the clear: only ever in this process's memory. */
export type ModelSettings = {
  defaultModel?: string;
  roleModels?: Record<string, string>;
  webModels?: string[];
  openai?: { key?: string; baseURL?: string };
  anthropic?: { key?: string; baseURL?: string };
  compatible?: Array<{ name: string; baseURL: string; key?: string; model?: string; logprobs: boolean }>;
  localModelPath?: string;
};

const scope = (boundTo: string) => ({ purpose: PURPOSE, boundTo });
/** What a key is bound to: a sealed key copied to another provider or server does not open. */
const boundTo = { openai: "openai", anthropic: "anthropic", compatible: (name: string) => `openai-compatible:${name}` };

/** The last four characters of a key, only for keys long enough that four say little. */
export const keyHint = (key: string) => (key.length >= 16 ? key.slice(-4) : "");

async function sealKey(db: Database, to: string, key: string | undefined) {
  return key ? { sealed: await seal(db, scope(to), key), hint: keyHint(key) } : undefined;
}

export async function sealModelSettings(db: Database, m: ModelSettings): Promise<StoredModelSettings> {
  return {
    version: 1,
    defaultModel: m.defaultModel,
    roleModels: m.roleModels,
    webModels: m.webModels,
    openai: m.openai && { key: await sealKey(db, boundTo.openai, m.openai.key), baseURL: m.openai.baseURL },
    anthropic: m.anthropic && {
      key: await sealKey(db, boundTo.anthropic, m.anthropic.key),
      baseURL: m.anthropic.baseURL,
    },
    compatible:
      m.compatible &&
      (await Promise.all(
        m.compatible.map(async (c) => ({ ...c, key: await sealKey(db, boundTo.compatible(c.name), c.key) })),
      )),
    localModelPath: m.localModelPath,
  };
}

/** Parses the stored row (undefined: nothing saved); `problems` names what could not be read. */
export function parseStored(raw: unknown): { stored?: StoredModelSettings; problems: string[] } {
  if (raw === undefined) return { problems: [] };
  const parsed = storedSchema.safeParse(raw);
  if (!parsed.success)
    return {
      problems: [
        `the saved model settings are not in the expected form (${parsed.error.issues[0]?.message}); save them again on the Admin page`,
      ],
    };
  return { stored: parsed.data, problems: [] };
}

/** Decrypts the stored settings; a key that does not open is left out and named in `problems`. */
export async function openModelSettings(
  db: Database,
  stored: StoredModelSettings,
): Promise<{ settings: ModelSettings; problems: string[] }> {
  const problems: string[] = [];
  const open = async (what: string, to: string, key: { sealed: string } | undefined) => {
    if (!key) return undefined;
    try {
      return await unseal(db, scope(to), key.sealed, `The ${what} key ${UNREADABLE}`);
    } catch (e) {
      problems.push((e as Error).message);
      return undefined;
    }
  };
  const settings: ModelSettings = {
    defaultModel: stored.defaultModel,
    roleModels: stored.roleModels,
    webModels: stored.webModels,
    openai: stored.openai && {
      key: await open("OpenAI", boundTo.openai, stored.openai.key),
      baseURL: stored.openai.baseURL,
    },
    anthropic: stored.anthropic && {
      key: await open("Anthropic", boundTo.anthropic, stored.anthropic.key),
      baseURL: stored.anthropic.baseURL,
    },
    compatible:
      stored.compatible &&
      (await Promise.all(
        stored.compatible.map(async (c) => ({
          ...c,
          key: await open(`"${c.name}" server's`, boundTo.compatible(c.name), c.key),
        })),
      )),
    localModelPath: stored.localModelPath,
  };
  return { settings, problems };
}

/** What getConfig() lays over the environment. */
export function overlayOf(m: ModelSettings): ModelOverlay {
  const compatible: Record<string, OpenAICompatibleConfig> = {};
  for (const c of m.compatible ?? [])
    compatible[c.name] = { name: c.name, baseURL: c.baseURL, apiKey: c.key, model: c.model, logprobs: c.logprobs };
  return {
    openai: m.openai && { apiKey: m.openai.key, baseURL: m.openai.baseURL },
    anthropic: m.anthropic && { apiKey: m.anthropic.key, baseURL: m.anthropic.baseURL },
    openaiCompatible: compatible,
    local: { modelPath: m.localModelPath },
    models: { default: m.defaultModel, roles: m.roleModels, web: m.webModels },
  };
}

/** Reads the saved settings, keys decrypted; nothing saved gives empty settings. */
export async function currentModelSettings(db: Database): Promise<{ settings: ModelSettings; problems: string[] }> {
  const { stored, problems } = parseStored(await readModelSettings(db));
  if (!stored) return { settings: {}, problems };
  const opened = await openModelSettings(db, stored);
  return { settings: opened.settings, problems: [...problems, ...opened.problems] };
}

/** Loads one process's view; calls run one after another, so the last to finish read the newest row. */
let loading: Promise<void> = Promise.resolve();

export function reloadModelSettings(db: Database): Promise<void> {
  loading = loading.then(async () => {
    try {
      const { settings, problems } = await currentModelSettings(db);
      for (const p of problems) console.error(`[models] ${p}`);
      // Nothing saved: the environment alone, as before any save.
      setProcessGlobal("model-overlay", Object.keys(settings).length ? overlayOf(settings) : undefined);
    } catch (e) {
      // Keeps the settings it had: a passing database hiccup must not drop every saved key.
      console.error(`[models] could not read the saved model settings: ${(e as Error).message}`);
    }
  });
  return loading;
}

/**
 * This process follows the saved settings: reads them now, and again whenever another process
 * signals a change (or the bus reconnects, when a signal may have been missed).
 */
export async function followModelSettings(db: Database): Promise<void> {
  await reloadModelSettings(db);
  peekProcessGlobal("pg-event-bus")?.onSignal(MODEL_SETTINGS_SIGNAL, () => void reloadModelSettings(db));
}

/** Saves, puts the settings in force here, then tells every other process. */
export async function saveModelSettings(db: Database, settings: ModelSettings): Promise<void> {
  await writeModelSettings(db, await sealModelSettings(db, settings));
  await reloadModelSettings(db);
  await peekProcessGlobal("pg-event-bus")?.signal(MODEL_SETTINGS_SIGNAL);
}
