import { signedInAs, useDatabase } from "../helpers/next-request";
import pg from "pg";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { readModelSettings, writeModelSettings } from "@/db/queries/model-settings";
import { createUser } from "@/db/queries/users";
import { createSession } from "@/lib/auth/sessions";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { callModel } from "@/lib/ai/call";
import { ModelConfigError, modelIdForRole, resolveModel } from "@/lib/ai/registry";
import { modelSettingsView } from "@/lib/ai/model-settings-form";
import {
  followModelSettings,
  MODEL_SETTINGS_SIGNAL,
  saveModelSettings,
  sealModelSettings,
} from "@/lib/ai/model-settings";
import { disableCrossProcessEvents, enableCrossProcessEvents } from "@/lib/debate/pg-bus";
import { setProcessGlobal } from "@/lib/process/globals";
import { modelSettingsAction } from "@/app/admin/actions";
import { startFakeChatServer } from "../helpers/fake-chat-server";
import { backend, freshDatabase } from "./test-db";

/*
 * Model providers and choices saved on /admin: in use at once (no restart), keys sealed at rest and
 * never sent back to the page, each model checked with a one-token call before saving, and on
 * PostgreSQL a save reaching the other processes through the event bus.
 */

const KEY = "sk-test-0123456789abcdef-WXYZ";
const ENV_KEYS = ["DEFAULT_MODEL", "ROLE_MODELS", "WEB_MODELS", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"];
const savedEnv: Record<string, string | undefined> = {};
let h: DbHandle;
let fake: Awaited<ReturnType<typeof startFakeChatServer>>;
let refusing: Awaited<ReturnType<typeof startFakeChatServer>>;

function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}
const serverForm = (baseURL: string, key: string, extra: Record<string, string> = {}) =>
  form({
    default_model: "openai-compatible:scripted",
    compat_count: "1",
    compat_0_was: "",
    compat_0_name: "scripted",
    compat_0_base_url: baseURL,
    compat_0_api_key: key,
    compat_0_model: "scripted-debater",
    ...extra,
  });

beforeAll(async () => {
  for (const k of ENV_KEYS) {
    savedEnv[k] = process.env[k];
    delete process.env[k];
  }
  for (const k of Object.keys(process.env)) if (k.startsWith("OPENAI_COMPATIBLE_")) delete process.env[k];
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  setProcessGlobal("model-overlay", undefined);
  const admin = await createUser(h.db, { email: "admin@x.org", passwordHash: null, roles: ["admin"] });
  signedInAs((await createSession(h.db, admin.id)).token);
  fake = await startFakeChatServer({ reply: "OK" });
  refusing = await startFakeChatServer({ status: 401 });
});
afterAll(async () => {
  setProcessGlobal("model-overlay", undefined);
  await disableCrossProcessEvents();
  await fake?.close();
  await refusing?.close();
  await h?.close();
  for (const [k, v] of Object.entries(savedEnv)) if (v !== undefined) process.env[k] = v;
  resetConfigForTests();
});

describe(`model settings saved on /admin (${backend})`, () => {
  it("puts a provider and default model in use without a restart, its key sealed and never sent back", async () => {
    expect(() => modelIdForRole("judge")).toThrow(ModelConfigError);

    const state = await modelSettingsAction({}, serverForm(fake.baseURL, KEY));
    expect(state.error).toBeUndefined();
    expect(state.message).toMatch(/^Saved; in use now/);
    // Checked before saving with a one-token call, carrying the key.
    expect(fake.authorizations).toContain(`Bearer ${KEY}`);
    expect(JSON.stringify(state)).not.toContain(KEY);

    // In use at once: the same process, no restart, no re-read of the environment.
    expect(modelIdForRole("judge")).toBe("openai-compatible:scripted");
    fake.authorizations.length = 0;
    const call = await callModel({
      model: "openai-compatible:scripted",
      purpose: "test",
      messages: [{ role: "user", content: "Say OK." }],
      maxRetries: 0,
    });
    expect(call.text).toBe("OK");
    expect(fake.authorizations).toEqual([`Bearer ${KEY}`]);

    // At rest: sealed, not the key; on the page: only its end.
    const stored = JSON.stringify(await readModelSettings(h.db));
    expect(stored).not.toContain(KEY);
    expect(stored).toContain('"sealed":"v1.');
    const view = await modelSettingsView(h.db);
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(view.saved.compatible[0]!.key).toEqual({ set: true, hint: "WXYZ" });
  });

  it("keeps the saved key when the field is left empty, and never echoes a key in a refusal", async () => {
    const kept = await modelSettingsAction(
      {},
      serverForm(fake.baseURL, "", { compat_0_was: "scripted", compat_0_logprobs: "on" }),
    );
    expect(kept.error).toBeUndefined();
    fake.authorizations.length = 0;
    await callModel({
      model: "openai-compatible:scripted",
      purpose: "test",
      messages: [{ role: "user", content: "x" }],
      maxRetries: 0,
    });
    expect(fake.authorizations).toEqual([`Bearer ${KEY}`]);

    const bad = await modelSettingsAction({}, serverForm("ftp://nowhere", "sk-other-key-0000000000000000"));
    expect(bad.field).toBe("compat_0_base_url");
    expect(bad.error).toMatch(/http\(s\) address/);
    expect(JSON.stringify(bad)).not.toContain("sk-other-key");
    expect(bad.values?.compat_0_base_url).toBe("ftp://nowhere");
  });

  it("refuses settings whose model does not answer the check, and keeps the ones in use", async () => {
    const before = getConfig();
    const state = await modelSettingsAction(
      {},
      serverForm(refusing.baseURL, "sk-wrong-0000000000000000", { compat_0_was: "scripted" }),
    );
    expect(state.error).toMatch(
      /^Not saved: openai-compatible:scripted did not answer: .*The settings in use are unchanged\.$/,
    );
    expect(refusing.authorizations).toContain("Bearer sk-wrong-0000000000000000");
    expect(getConfig()).toBe(before);
    expect(getConfig().openaiCompatible.scripted?.baseURL).toBe(fake.baseURL);
  });

  it("lets a value saved here win over the environment, and an empty field fall back to it", async () => {
    process.env.DEFAULT_MODEL = "openai:gpt-4o-mini";
    process.env.ROLE_MODELS = "judge=openai:gpt-4o";
    resetConfigForTests();
    expect(getConfig().models.default).toBe("openai-compatible:scripted");
    expect(modelIdForRole("judge")).toBe("openai:gpt-4o");
    expect(modelIdForRole("debater")).toBe("openai-compatible:scripted");
    // A saved OpenAI key only: the environment's default model is back, with the saved key.
    await saveModelSettings(h.db, { openai: { key: "sk-openai-saved-000000000000" } });
    expect(getConfig().models.default).toBe("openai:gpt-4o-mini");
    expect(getConfig().openai.apiKey).toBe("sk-openai-saved-000000000000");
    delete process.env.DEFAULT_MODEL;
    delete process.env.ROLE_MODELS;
    resetConfigForTests();
  });

  it("a changed setting replaces the resolved model (the registry's cache follows the settings)", async () => {
    await saveModelSettings(h.db, {
      compatible: [{ name: "scripted", baseURL: fake.baseURL, key: KEY, logprobs: false, model: "a" }],
    });
    const first = resolveModel("openai-compatible:scripted");
    expect(resolveModel("openai-compatible:scripted")).toBe(first);
    await saveModelSettings(h.db, {
      compatible: [{ name: "scripted", baseURL: fake.baseURL, key: KEY, logprobs: true, model: "a" }],
    });
    const second = resolveModel("openai-compatible:scripted");
    expect(second).not.toBe(first);
    expect(second.scoring).toBe("top-logprobs");
  });
});

describe.skipIf(backend !== "postgres")("model settings across processes (PostgreSQL)", () => {
  it("a save signals the other processes; a signal from another process, or a reconnect of the bus, makes this one read the row again", async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const bus = enableCrossProcessEvents(url);
    await followModelSettings(h.db);
    const spy = new pg.Client({ connectionString: url });
    await spy.connect();
    const heard: string[] = [];
    spy.on("notification", (m) => heard.push(m.channel));
    await spy.query(`listen ${MODEL_SETTINGS_SIGNAL}`);
    try {
      await saveModelSettings(h.db, { defaultModel: "openai-compatible:scripted" });
      await waitFor(() => heard.length > 0, "the save's notification");
      expect(heard).toEqual([MODEL_SETTINGS_SIGNAL]);

      // Another process saves (the row, then its signal): this process follows without a restart.
      await writeModelSettings(h.db, await sealModelSettings(h.db, { defaultModel: "anthropic:claude-haiku-4-5" }));
      expect(getConfig().models.default).toBe("openai-compatible:scripted");
      await spy.query(`select pg_notify($1, $2)`, [MODEL_SETTINGS_SIGNAL, JSON.stringify({ o: "another-process" })]);
      await waitFor(() => getConfig().models.default === "anthropic:claude-haiku-4-5", "the reload after the signal");

      // A signal missed while the bus was cut: the reconnect reads the row again.
      await writeModelSettings(h.db, await sealModelSettings(h.db, { defaultModel: "openai:gpt-4o-mini" }));
      const pid = bus.backendPid();
      expect(pid).not.toBeNull();
      await h.db.execute(sql`select pg_terminate_backend(${pid})`);
      await waitFor(() => getConfig().models.default === "openai:gpt-4o-mini", "the reload after the reconnect");
    } finally {
      await spy.end();
    }
  });
});

/** Polls until `ok` (bounded): what is checked is that it happens, not how fast. */
async function waitFor(ok: () => boolean, what: string) {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
}
