import { stat } from "node:fs/promises";
import type { Database } from "@/db/client";
import { getConfig } from "@/lib/config";
import { currentModelSettings, saveModelSettings } from "@/lib/ai/model-settings";
import {
  DEFAULT_LOCAL_PRESET,
  LOCAL_MODEL_PRESETS,
  type LocalModelPreset,
  resolveLocalModelFile,
  sha256File,
} from "@/lib/ai/local/model-file";
import { processGlobal } from "@/lib/process/globals";

/**
 * "Use a small model on this server" (/welcome step 2): one download of a local preset at a time,
 * run in the background of the server process so the page can be left and come back to. When the
 * file is in place and its SHA-256 matches the preset's, the saved model settings get
 * `local:<preset>` as the default model, in force at once on every process (saveModelSettings).
 * A file whose checksum is wrong is removed by the download itself and the setup says so.
 */

export type LocalSetupPhase = "downloading" | "verifying" | "done" | "failed";

export interface LocalSetupState {
  preset: string;
  /** The preset's description, for the page ("Qwen2.5 1.5B Instruct, Q4_K_M (1.1 GB)"). */
  description: string;
  phase: LocalSetupPhase;
  received: number;
  total?: number;
  /** The SHA-256 the file was checked against, once it matched. */
  sha256?: string;
  /** Why it failed, in words, with what to do. */
  error?: string;
}

export interface LocalSetupProcess {
  state?: LocalSetupState;
  job?: Promise<void>;
}

const current = () => processGlobal("local-model-setup", () => ({}));

/** What the page shows: the last setup started in this process, if any. */
export function localSetupState(): LocalSetupState | undefined {
  const s = current().state;
  return s ? { ...s } : undefined;
}

/** The setup running now, so a test (or a caller that must wait) can await its end. */
export function localSetupJob(): Promise<void> | undefined {
  return current().job;
}

export interface StartLocalSetupOptions {
  preset?: string;
  /** Replaces the built-in preset table: how tests give a tiny file its own checksum. */
  presets?: Readonly<Record<string, LocalModelPreset>>;
}

/**
 * Starts the download unless one is running (a second click then joins the first). Returns the
 * state at once; the download goes on after the request that started it has been answered.
 */
export function startLocalModelSetup(db: Database, opts: StartLocalSetupOptions = {}): LocalSetupState {
  const proc = current();
  if (proc.job && proc.state) return { ...proc.state };
  const presets = opts.presets ?? LOCAL_MODEL_PRESETS;
  const name = opts.preset ?? DEFAULT_LOCAL_PRESET;
  const preset = presets[name];
  if (!preset)
    throw new Error(`Unknown local model preset "${name}". Known presets: ${Object.keys(presets).join(", ")}.`);
  const state: LocalSetupState = { preset: name, description: preset.description, phase: "downloading", received: 0 };
  proc.state = state;
  const local = getConfig().local;
  proc.job = (async () => {
    try {
      const file = await resolveLocalModelFile(name, {
        cacheDir: local.cacheDir,
        // The preset is what was asked for, not a file named elsewhere.
        modelPath: undefined,
        allowDownload: local.allowDownload,
        baseUrl: local.baseUrl,
        presets,
        onProgress: ({ received, total }) => {
          state.received = received;
          state.total = total;
          if (total !== undefined && received >= total) state.phase = "verifying";
        },
      });
      // Presets pin their hash and the download refused any other; one without a pin is hashed here.
      state.sha256 = preset.sha256 ?? (await sha256File(file));
      // Already downloaded and verified earlier: no bytes came, the whole file is there.
      if (state.received === 0) state.received = state.total = (await stat(file)).size;
      const { settings } = await currentModelSettings(db);
      await saveModelSettings(db, { ...settings, defaultModel: `local:${name}` });
      state.phase = "done";
    } catch (e) {
      state.phase = "failed";
      state.error = (e as Error).message;
    } finally {
      proc.job = undefined;
    }
  })();
  return { ...state };
}
