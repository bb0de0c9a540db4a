import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { callModel } from "@/lib/ai/call";
import { resolveModel } from "@/lib/ai/registry";
import { scoreOptions } from "@/lib/ai/score-options";
import { disposeLocalModels } from "@/lib/ai/local/provider";
import { writeTinyGguf } from "./helpers/tiny-gguf";

/** The whole local path as the app uses it: model id -> registry -> lazy load -> call and scoring. */
let gguf: string;
beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-local-reg-"));
  gguf = await writeTinyGguf(path.join(dir, "tiny.gguf"), { seed: 7 });
});
afterAll(async () => {
  await disposeLocalModels();
});

describe("local models through the registry", () => {
  it("streams a reply and counts its tokens", async () => {
    const config = parseConfig({ LOCAL_THREADS: "1" });
    const model = resolveModel(`local:${gguf}`, config);
    expect(model).toMatchObject({ provider: "local", scoring: "next-token", limitKey: "local" });
    const deltas: string[] = [];
    const r = await callModel({
      model,
      purpose: "test",
      messages: [{ role: "user", content: "Is the claim true?" }],
      maxOutputTokens: 12,
      temperature: 0,
      onTextDelta: (d) => deltas.push(d),
    });
    expect(r.text.length).toBeGreaterThan(0);
    expect(deltas.join("")).toBe(r.text);
    expect(r.usage.promptTokens).toBeGreaterThan(5);
    expect(r.usage.completionTokens).toBe(12);
    expect(r.costUsd).toBe(0);
  });

  it("scores options from the model's own next-token distribution, reproducibly", async () => {
    const config = parseConfig({ LOCAL_THREADS: "1" });
    const model = resolveModel(`local:${gguf}`, config);
    const run = () =>
      scoreOptions({
        model,
        purpose: "checkpoint:stop",
        messages: [{ role: "user", content: "Answer STOP or CONTINUE." }],
        options: ["STOP", "CONTINUE"],
        maxOutputTokens: 8,
        temperature: 0,
      });
    const a = await run();
    const b = await run();
    expect(a.scores.status).toBe("scored");
    if (a.scores.status !== "scored" || b.scores.status !== "scored") return;
    expect(a.scores.method).toBe("next-token");
    expect(a.scores.probs.STOP! + a.scores.probs.CONTINUE!).toBeCloseTo(1, 9);
    expect(a.scores.mass).toBeGreaterThan(0);
    expect(a.scores.mass).toBeLessThan(1);
    expect(b.scores.probs).toEqual(a.scores.probs);
  });

  it("names LOCAL_MODEL_PATH when a model file is missing", async () => {
    const config = parseConfig({ LOCAL_THREADS: "1" });
    const model = resolveModel("local:/nonexistent/model.gguf", config);
    await expect(
      callModel({ model, purpose: "t", messages: [{ role: "user", content: "hi" }], maxRetries: 0 }),
    ).rejects.toThrow(/Local model file not found: \/nonexistent\/model\.gguf.*set LOCAL_MODEL_PATH/);
  });
});
