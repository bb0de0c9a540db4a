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
import { z } from "zod";
import { readLocalModelSetup, writeLocalModelSetup } from "@/db/queries/local-model-setup";

/**
 * "Use a small model on this server" (/welcome step 2): one download of a local preset at a time,
 * run in the background of the server process so the page can be left and come back to; its progress
 * is kept in the database so every server can show it. When the
 * file is in place and its SHA-256 matches the preset's, the saved model settings get
 * `local:<preset>` as the default model, in force at once on every process (saveModelSettings).
 * A file whose checksum is wrong is removed by the download itself and the setup says so.
 */

export const LOCAL_SETUP_PHASES = ["downloading", "verifying", "done", "failed"] as const;
export type LocalSetupPhase = (typeof LOCAL_SETUP_PHASES)[number];

/** What is stored in the settings row and shown on the page; checked when read back. */
const stateSchema = z.object({
  preset: z.string(),
  /** The preset's description, for the page ("Qwen2.5 1.5B Instruct, Q4_K_M (1.1 GB)"). */
  description: z.string(),
  phase: z.enum(LOCAL_SETUP_PHASES),
  received: z.number().nonnegative(),
  total: z.number().nonnegative().optional(),
  /** The SHA-256 the file was checked against, once it matched. */
  sha256: z.string().optional(),
  /** Why it failed, in words, with what to do. */
  error: z.string().optional(),
});
export type LocalSetupState = z.infer<typeof stateSchema>;

export interface LocalSetupProcess {
  state?: LocalSetupState;
  job?: Promise<void>;
}

/*
 * The state lives in the database (db/queries/local-model-setup.ts) because the page's poll may reach
 * any app server, not the one running the download. Progress is written at most once a second (a
 * trailing write keeps the last figure), phase changes at once, and a heartbeat every 10 s while it
 * runs, so a row left "downloading" by a server that stopped is seen as stopped after a minute.
 */
const WRITE_EVERY_MS = 1000;
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 60_000;
const running = (phase: LocalSetupPhase) => phase === "downloading" || phase === "verifying";

const current = () => processGlobal("local-model-setup", () => ({}));

/** What the page shows: the last setup started on any server of this instance, if any. */
export async function localSetupState(db: Database): Promise<LocalSetupState | undefined> {
  const row = await readLocalModelSetup(db);
  const parsed = stateSchema.safeParse(row?.value);
  if (!row || !parsed.success) return undefined;
  const state = parsed.data;
  if (running(state.phase) && Date.now() - row.updatedAt.getTime() > STALE_AFTER_MS && !current().job)
    return {
      ...state,
      phase: "failed",
      error: "The download stopped because the server running it stopped or restarted. Start it again.",
    };
  return state;
}

/** The setup running in this process, so a test (or a caller that must wait) can await its end. */
export function localSetupJob(): Promise<void> | undefined {
  return current().job;
}

/** Writes `state` to its row: `now` at once, `soon` at most once a second; writes are kept in order. */
function rowWriter(db: Database, state: LocalSetupState) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  const now = () => {
    clearTimeout(timer);
    timer = undefined;
    last = Date.now();
    const snapshot = { ...state };
    chain = chain
      .then(() => writeLocalModelSetup(db, snapshot))
      // A lost progress write must not stop the download; the next one (or the last) catches up.
      .catch((e) => console.warn(`Could not save the local model download's progress: ${(e as Error).message}`));
    return chain;
  };
  const soon = () => {
    if (timer) return;
    const wait = last + WRITE_EVERY_MS - Date.now();
    if (wait <= 0) void now();
    else timer = setTimeout(now, wait);
  };
  return { now, soon, stop: () => clearTimeout(timer), settled: () => chain };
}

export interface StartLocalSetupOptions {
  preset?: string;
  /** Replaces the built-in preset table: how tests give a tiny file its own checksum. */
  presets?: Readonly<Record<string, LocalModelPreset>>;
}

/**
 * Starts the download unless one is running on any server (a second click then joins the first).
 * Answers with the state once it is saved; the download goes on after the request has been answered.
 */
export async function startLocalModelSetup(db: Database, opts: StartLocalSetupOptions = {}): Promise<LocalSetupState> {
  const proc = current();
  if (proc.job && proc.state) return { ...proc.state };
  const elsewhere = await localSetupState(db);
  if (elsewhere && running(elsewhere.phase)) return elsewhere;
  const presets = opts.presets ?? LOCAL_MODEL_PRESETS;
  const name = opts.preset ?? DEFAULT_LOCAL_PRESET;
  const preset = presets[name];
  if (!preset)
    throw new Error(`Unknown local model preset "${name}". Known presets: ${Object.keys(presets).join(", ")}.`);
  const state: LocalSetupState = { preset: name, description: preset.description, phase: "downloading", received: 0 };
  proc.state = state;
  const local = getConfig().local;
  const writer = rowWriter(db, state);
  let job: Promise<void> | undefined;
  proc.job = job = (async () => {
    const beat = setInterval(() => void writer.now(), HEARTBEAT_MS);
    beat.unref?.();
    try {
      void writer.now();
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
          if (total !== undefined && received >= total && state.phase !== "verifying") {
            state.phase = "verifying";
            void writer.now();
          } else writer.soon();
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
      clearInterval(beat);
      writer.stop();
      await writer.now();
      if (proc.job === job) proc.job = undefined;
    }
  })();
  // The row exists before the page is answered, so its first poll on any server finds it.
  await writer.settled();
  return { ...state };
}
