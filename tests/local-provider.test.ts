/**
 * Drives the in-process provider through the real node-llama-cpp binary with
 * a tiny random-weight GGUF generated on the fly, and the model-file resolver
 * against a throwaway HTTP server on 127.0.0.1.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { generateText, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDownloadProgressBar,
  LOCAL_MODEL_PRESETS,
  resolveLocalModelFile,
  type DownloadProgress,
  type LocalModelPreset,
} from "../lib/ai/local/model-file";
import { createLocalLanguageModel, disposeLocalModels, type LocalLanguageModel } from "../lib/ai/local/provider";
import { buildTinyGguf, writeTinyGguf } from "./helpers/tiny-gguf";

let tmp: string;
let modelPath: string;
let model: LocalLanguageModel;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "counterpoint-local-"));
  modelPath = await writeTinyGguf(path.join(tmp, "tiny.gguf"), { seed: 7 });
  // One thread: ggml's thread sync costs more than a 64-wide matmul saves.
  model = createLocalLanguageModel({ modelPath, modelId: "tiny-test", contextSize: 512, threads: 1 });
});

afterAll(async () => {
  await disposeLocalModels();
  await rm(tmp, { recursive: true, force: true });
});

const userPrompt = (text: string): LanguageModelV3Prompt => [
  { role: "system", content: "You check claims." },
  { role: "user", content: [{ type: "text", text }] },
];

describe("tiny GGUF helper", () => {
  it("is a small GGUF v3 file and deterministic per seed", () => {
    const a = buildTinyGguf({ seed: 1 });
    const b = buildTinyGguf({ seed: 1 });
    const c = buildTinyGguf({ seed: 2 });
    expect(a.subarray(0, 4).toString("ascii")).toBe("GGUF");
    expect(a.readUInt32LE(4)).toBe(3);
    expect(a.length).toBeLessThan(2 * 1024 * 1024);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });
});

describe("local provider (node-llama-cpp, tiny model)", { timeout: 120_000 }, () => {
  it("generateText returns text and v3 usage with real token counts", async () => {
    const t0 = Date.now();
    const res = await generateText({ model, prompt: "Is the moon made of cheese?", maxOutputTokens: 24 });
    const ms = Date.now() - t0;
    expect(res.text.length).toBeGreaterThan(0);
    expect(res.usage.inputTokens).toBeGreaterThan(5);
    expect(res.usage.outputTokens).toBeGreaterThan(0);
    expect(res.usage.outputTokens).toBeLessThanOrEqual(24);
    expect(res.usage.totalTokens).toBe((res.usage.inputTokens ?? 0) + (res.usage.outputTokens ?? 0));
    // The tiny model never emits end-of-turn, so it must stop on the cap.
    expect(res.finishReason).toBe("length");
    expect(res.response.modelId).toBe("tiny-test");
    console.info(`[tiny model] first generateText incl. load: ${ms} ms`);
  });

  it("counts input tokens from the rendered chat, so a longer prompt costs more", async () => {
    const short = await generateText({ model, prompt: "Hi", maxOutputTokens: 1 });
    const long = await generateText({ model, prompt: "Hi ".repeat(40), maxOutputTokens: 1 });
    expect(long.usage.inputTokens! - short.usage.inputTokens!).toBeGreaterThanOrEqual(40);
  });

  it("is deterministic at temperature 0", async () => {
    const a = await generateText({ model, prompt: "Repeat after me", maxOutputTokens: 16, temperature: 0 });
    const b = await generateText({ model, prompt: "Repeat after me", maxOutputTokens: 16, temperature: 0 });
    expect(a.text).toBe(b.text);
  });

  it("honours seed and temperature when sampling", async () => {
    const run = (seed: number) =>
      generateText({ model, prompt: "Say something", maxOutputTokens: 16, temperature: 1.5, seed }).then((r) => r.text);
    expect(await run(11)).toBe(await run(11));
    const distinct = new Set([await run(1), await run(2), await run(3), await run(4)]);
    expect(distinct.size).toBeGreaterThan(1);
  });

  it("streamText streams several deltas that add up to the final text", async () => {
    const res = streamText({ model, prompt: "Tell me a story", maxOutputTokens: 20 });
    const deltas: string[] = [];
    for await (const d of res.textStream) deltas.push(d);
    const text = await res.text;
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.join("")).toBe(text);
    expect(text.length).toBeGreaterThan(0);
    const usage = await res.usage;
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(usage.inputTokens).toBeGreaterThan(0);
    // Same prompt without streaming must give the same greedy text.
    const plain = await generateText({ model, prompt: "Tell me a story", maxOutputTokens: 20 });
    expect(plain.text).toBe(text);
  });

  it("emits well-formed v3 stream parts in order", async () => {
    const { stream } = await model.doStream({ prompt: userPrompt("parts"), maxOutputTokens: 6 });
    const parts: LanguageModelV3StreamPart[] = [];
    for await (const p of stream as unknown as AsyncIterable<LanguageModelV3StreamPart>) parts.push(p);
    const types = parts.map((p) => p.type);
    expect(types[0]).toBe("stream-start");
    expect(types[1]).toBe("text-start");
    expect(types.at(-1)).toBe("finish");
    expect(types.indexOf("text-end")).toBeGreaterThan(types.lastIndexOf("text-delta"));
    const finish = parts.at(-1);
    if (finish?.type !== "finish") throw new Error("no finish part");
    expect(finish.usage.outputTokens.total).toBe(6);
    expect(finish.finishReason.unified).toBe("length");
  });

  it("respects maxOutputTokens", async () => {
    const few = await generateText({ model, prompt: "Count", maxOutputTokens: 3 });
    const more = await generateText({ model, prompt: "Count", maxOutputTokens: 30 });
    expect(few.usage.outputTokens).toBe(3);
    expect(more.usage.outputTokens).toBe(30);
    expect(more.text.startsWith(few.text)).toBe(true);
    expect(few.text.length).toBeLessThan(more.text.length);
  });

  it("stops at a stop sequence and leaves it out of the text", async () => {
    const full = await generateText({ model, prompt: "Stop test", maxOutputTokens: 40 });
    // Pick a stop string from the middle of the greedy output.
    const stop = full.text.slice(15, 18);
    expect(stop.length).toBe(3);
    const cut = full.text.indexOf(stop);
    const stopped = await generateText({ model, prompt: "Stop test", maxOutputTokens: 40, stopSequences: [stop] });
    expect(stopped.text).toBe(full.text.slice(0, cut));
    expect(stopped.finishReason).toBe("stop");
  });

  it("aborts: a pre-aborted call rejects, a running stream stops early, and the model stays usable", async () => {
    await expect(
      generateText({ model, prompt: "x", maxOutputTokens: 10, abortSignal: AbortSignal.abort() }),
    ).rejects.toThrow(/abort/i);

    const ac = new AbortController();
    let deltas = 0;
    let aborted = false;
    const res = streamText({
      model,
      prompt: "Go on forever",
      maxOutputTokens: 450,
      abortSignal: ac.signal,
      onAbort: () => {
        aborted = true;
      },
    });
    for await (const part of res.fullStream) {
      if (part.type === "text-delta" && ++deltas === 3) ac.abort();
    }
    expect(aborted).toBe(true);
    expect(deltas).toBeGreaterThanOrEqual(3);
    expect(deltas).toBeLessThan(50);

    const ac2 = new AbortController();
    const pending = generateText({ model, prompt: "long", maxOutputTokens: 450, abortSignal: ac2.signal });
    setTimeout(() => ac2.abort(), 5);
    await expect(pending).rejects.toThrow(/abort/i);

    const after = await generateText({ model, prompt: "still alive?", maxOutputTokens: 4 });
    expect(after.usage.outputTokens).toBe(4);
  });

  it("stops generating when the consumer cancels the stream", async () => {
    const prompt = userPrompt("cancel me");
    let t0 = Date.now();
    await model.doGenerate({ prompt, maxOutputTokens: 450 });
    const full = Date.now() - t0;

    t0 = Date.now();
    const { stream } = await model.doStream({ prompt, maxOutputTokens: 450 });
    const reader = stream.getReader();
    let deltas = 0;
    while (deltas < 2) {
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended early");
      if (value.type === "text-delta") deltas++;
    }
    await reader.cancel();
    // The next call queues behind the cancelled one, so it only finishes
    // quickly if the cancelled generation really stopped.
    const next = await model.doGenerate({ prompt, maxOutputTokens: 1 });
    const cancelled = Date.now() - t0;
    expect(next.usage.outputTokens.total).toBe(1);
    expect(cancelled).toBeLessThan(full / 2);
  });

  it("constrains output to a JSON schema when asked for JSON", async () => {
    const res = await model.doGenerate({
      prompt: userPrompt("Verdict as JSON"),
      maxOutputTokens: 120,
      responseFormat: {
        type: "json",
        schema: {
          type: "object",
          properties: { verdict: { type: "string", enum: ["TRUE", "HALF-TRUE", "FALSE"] } },
          required: ["verdict"],
          additionalProperties: false,
        },
      },
    });
    const text = res.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    const parsed = JSON.parse(text) as { verdict: string };
    expect(["TRUE", "HALF-TRUE", "FALSE"]).toContain(parsed.verdict);
  });

  it("serialises concurrent calls: results match the sequential ones", async () => {
    const prompts = ["alpha", "beta", "gamma"] as const;
    const sequential: string[] = [];
    for (const p of prompts) sequential.push((await generateText({ model, prompt: p, maxOutputTokens: 12 })).text);
    const dist = await model.nextTokenDistribution(userPrompt("alpha"), "DECISION:", 5);
    const [a, b, d, c] = await Promise.all([
      generateText({ model, prompt: prompts[0], maxOutputTokens: 12 }),
      generateText({ model, prompt: prompts[1], maxOutputTokens: 12 }),
      model.nextTokenDistribution(userPrompt("alpha"), "DECISION:", 5),
      generateText({ model, prompt: prompts[2], maxOutputTokens: 12 }),
    ]);
    expect([a.text, b.text, c.text]).toEqual(sequential);
    expect(d).toEqual(dist);
  });

  it("serialises concurrent scoring calls on the shared scoring sequence", async () => {
    const cases = [
      { p: userPrompt("first claim"), prefix: "DECISION:" },
      { p: userPrompt("second claim, longer ".repeat(5)), prefix: "[VERDICT]:" },
      { p: userPrompt("first claim"), prefix: "[VERDICT]:" },
      { p: userPrompt("third"), prefix: "DECISION: C" },
    ];
    const sequential = [];
    for (const c of cases) sequential.push(await model.nextTokenDistribution(c.p, c.prefix, 5));
    const parallel = await Promise.all(cases.map((c) => model.nextTokenDistribution(c.p, c.prefix, 5)));
    expect(parallel).toEqual(sequential);
  });

  describe("nextTokenDistribution", () => {
    const prompt = userPrompt("Claim: water boils at 100 C at sea level. Should the debate stop?");

    it("returns the full vocabulary as probabilities that sum to 1, sorted", async () => {
      const dist = await model.nextTokenDistribution(prompt, "DECISION:");
      expect(dist.length).toBeGreaterThan(300);
      const sum = dist.reduce((s, t) => s + t.prob, 0);
      expect(sum).toBeGreaterThan(0.999);
      expect(sum).toBeLessThan(1.001);
      for (let i = 1; i < dist.length; i++) expect(dist[i - 1]!.prob).toBeGreaterThanOrEqual(dist[i]!.prob);
      expect(new Set(dist.map((t) => t.tokenId)).size).toBe(dist.length);
      // Tokens come back as text: the printable ASCII vocabulary must be there.
      const texts = new Set(dist.map((t) => t.token));
      for (const ch of ["T", "F", "S", "C", "?"]) expect(texts.has(ch)).toBe(true);
      // The top token is not a uniform guess over ~400 tokens.
      expect(dist[0]!.prob).toBeGreaterThan(5 / dist.length);
    });

    it("is deterministic, also after other work has used the context", async () => {
      const a = await model.nextTokenDistribution(prompt, "DECISION:");
      await generateText({ model, prompt: "something unrelated", maxOutputTokens: 10 });
      const b = await model.nextTokenDistribution(prompt, "DECISION:");
      const c = await model.nextTokenDistribution(prompt, "DECISION:");
      expect(b).toEqual(a);
      expect(c).toEqual(a);
    });

    it("changes when the assistant prefix or the history changes", async () => {
      const decision = await model.nextTokenDistribution(prompt, "DECISION:", 10);
      const verdict = await model.nextTokenDistribution(prompt, "[VERDICT]:", 10);
      const other = await model.nextTokenDistribution(userPrompt("A different claim entirely."), "DECISION:", 10);
      const probsOf = (d: typeof decision) => d.map((t) => `${t.tokenId}:${t.prob.toFixed(6)}`);
      expect(probsOf(verdict)).not.toEqual(probsOf(decision));
      expect(probsOf(other)).not.toEqual(probsOf(decision));
    });

    it("topK returns the head of the full distribution", async () => {
      const full = await model.nextTokenDistribution(prompt, "[VERDICT]:");
      const top = await model.nextTokenDistribution(prompt, "[VERDICT]:", 7);
      expect(top).toHaveLength(7);
      expect(top).toEqual(full.slice(0, 7));
    });

    it("matches the greedy choice of generation after the same prefix", async () => {
      // Teacher forcing must score exactly the continuation generation would
      // produce: prefill the assistant turn and compare the first new token.
      const dist = await model.nextTokenDistribution(prompt, "DECISION:", 1);
      const gen = await model.doGenerate({
        prompt: [...prompt, { role: "assistant", content: [{ type: "text", text: "DECISION:" }] }],
        maxOutputTokens: 1,
        temperature: 0,
      });
      const text = gen.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      expect(text).toBe(dist[0]!.token);
    });
  });
});

/* ------------------------------------------------------------------------ */

interface TestServer {
  url: string;
  requests: string[];
  close: () => Promise<void>;
}

async function startServer(payload: Buffer): Promise<TestServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url === "/model.gguf") {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(payload.length) });
      // Several chunks so progress is reported more than once.
      const chunk = 64 * 1024;
      let off = 0;
      const pump = () => {
        while (off < payload.length) {
          const ok = res.write(payload.subarray(off, off + chunk));
          off += chunk;
          if (!ok) return void res.once("drain", () => setImmediate(pump));
          return void setImmediate(pump);
        }
        res.end();
      };
      pump();
    } else if (req.url === "/drop.gguf") {
      res.writeHead(200, { "content-length": String(payload.length) });
      res.write(payload.subarray(0, payload.length >> 1), () => setTimeout(() => res.destroy(), 20));
    } else if (req.url === "/stall.gguf") {
      res.writeHead(200, { "content-length": String(payload.length) });
      res.write(payload.subarray(0, 1000));
      // then nothing: the client's stall timer must fire
    } else {
      res.writeHead(404).end("nope");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("resolveLocalModelFile", { timeout: 60_000 }, () => {
  let dir: string;
  let payload: Buffer;
  let payloadSha: string;
  let server: TestServer;

  const preset = (over: Partial<LocalModelPreset> = {}): Record<string, LocalModelPreset> => ({
    tiny: {
      id: "tiny",
      fileName: "tiny-download.gguf",
      url: `${server.url}/model.gguf`,
      sizeBytes: payload.length,
      sha256: payloadSha,
      description: "test",
      ...over,
    },
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "counterpoint-modelfile-"));
    payload = buildTinyGguf({ seed: 99 });
    payloadSha = createHash("sha256").update(payload).digest("hex");
    server = await startServer(payload);
  });

  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("has the default and the small preset, both with pinned hashes", () => {
    const big = LOCAL_MODEL_PRESETS["qwen2.5-1.5b-instruct-q4_k_m"];
    const small = LOCAL_MODEL_PRESETS["qwen2.5-0.5b-instruct-q8_0"];
    expect(big?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(small?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(big?.url).toMatch(/^https:\/\/huggingface\.co\/Qwen\/.+\.gguf$/);
  });

  it("uses a .gguf path spec as is, absolute or relative, with or without local:", async () => {
    const file = path.join(dir, "mine.gguf");
    await writeFile(file, payload);
    const opts = { cacheDir: path.join(dir, "cache"), allowDownload: false, baseDir: dir };
    expect(await resolveLocalModelFile(`local:${file}`, opts)).toBe(file);
    expect(await resolveLocalModelFile(file, opts)).toBe(file);
    expect(await resolveLocalModelFile("local:./mine.gguf", opts)).toBe(file);
    // Explicit paths win over LOCAL_MODEL_PATH: the spec is the more specific request.
    expect(await resolveLocalModelFile("mine.gguf", { ...opts, modelPath: "/elsewhere.gguf" })).toBe(file);
  });

  it("fails clearly when a path spec does not exist", async () => {
    const missing = path.join(dir, "nope", "missing.gguf");
    await expect(resolveLocalModelFile(`local:${missing}`, { cacheDir: dir, allowDownload: true })).rejects.toThrow(
      new RegExp(`not found: ${missing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
  });

  it("lets LOCAL_MODEL_PATH override a preset, and names it when that file is missing", async () => {
    const file = path.join(dir, "override.gguf");
    await writeFile(file, payload);
    const opts = { cacheDir: path.join(dir, "cache"), allowDownload: true, urlOverride: "http://127.0.0.1:9/x" };
    expect(await resolveLocalModelFile("local:qwen2.5-1.5b-instruct-q4_k_m", { ...opts, modelPath: file })).toBe(file);
    await expect(
      resolveLocalModelFile("local:qwen2.5-1.5b-instruct-q4_k_m", { ...opts, modelPath: path.join(dir, "gone.gguf") }),
    ).rejects.toThrow(/LOCAL_MODEL_PATH/);
  });

  it("rejects an unknown preset and lists the known ones", async () => {
    await expect(resolveLocalModelFile("local:llama-9000", { cacheDir: dir, allowDownload: true })).rejects.toThrow(
      /Unknown local model preset "llama-9000".*qwen2\.5-1\.5b-instruct-q4_k_m/,
    );
  });

  it("without network, names the preset, the URL and LOCAL_MODEL_PATH, and leaves no partial file", async () => {
    const cacheDir = path.join(dir, "offline");
    const url = "http://127.0.0.1:9/qwen.gguf";
    const err = await resolveLocalModelFile("local:qwen2.5-1.5b-instruct-q4_k_m", {
      cacheDir,
      allowDownload: true,
      urlOverride: url,
    }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    const msg = (err as Error).message;
    expect(msg).toContain(`Could not download qwen2.5-1.5b-instruct-q4_k_m from ${url} (`);
    expect(msg).toContain("Set LOCAL_MODEL_PATH=/path/to/model.gguf");
    expect(msg).toContain("local:/path/to/model.gguf");
    const left = existsSync(cacheDir) ? await readdir(cacheDir) : [];
    expect(left).toEqual([]);
  });

  it("with downloads disabled, says so and names LOCAL_MODEL_PATH without touching the network", async () => {
    const before = server.requests.length;
    await expect(
      resolveLocalModelFile("local:tiny", {
        cacheDir: path.join(dir, "nodl"),
        allowDownload: false,
        presets: preset(),
      }),
    ).rejects.toThrow(/LOCAL_MODEL_DOWNLOAD=false.*LOCAL_MODEL_PATH=/);
    expect(server.requests.length).toBe(before);
  });

  it("downloads a preset with progress, verifies it, caches it, and the file loads", async () => {
    const cacheDir = path.join(dir, "dl");
    const progress: DownloadProgress[] = [];
    const before = server.requests.length;
    const file = await resolveLocalModelFile("local:tiny", {
      cacheDir,
      allowDownload: true,
      presets: preset(),
      onProgress: (p) => progress.push(p),
    });
    expect(file).toBe(path.join(cacheDir, "tiny-download.gguf"));
    expect((await readFile(file)).equals(payload)).toBe(true);
    expect(await readFile(`${file}.sha256`, "utf8")).toBe(`${payloadSha}  tiny-download.gguf\n`);
    expect((await readdir(cacheDir)).sort()).toEqual(["tiny-download.gguf", "tiny-download.gguf.sha256"]);
    expect(server.requests.length).toBe(before + 1);

    expect(progress.length).toBeGreaterThan(3);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.received).toBeGreaterThanOrEqual(progress[i - 1]!.received);
    expect(progress.at(-1)).toEqual({ received: payload.length, total: payload.length });

    // Second resolve is served from the cache: no new request.
    expect(await resolveLocalModelFile("local:tiny", { cacheDir, allowDownload: true, presets: preset() })).toBe(file);
    expect(server.requests.length).toBe(before + 1);

    const downloaded = createLocalLanguageModel({ modelPath: file, modelId: "dl", contextSize: 256, threads: 1 });
    const dist = await downloaded.nextTokenDistribution(userPrompt("hi"), "A", 3);
    expect(dist).toHaveLength(3);
  });

  it("shares one download between concurrent callers", async () => {
    const cacheDir = path.join(dir, "concurrent");
    const before = server.requests.length;
    const opts = { cacheDir, allowDownload: true, presets: preset() };
    const [a, b] = await Promise.all([resolveLocalModelFile("tiny", opts), resolveLocalModelFile("tiny", opts)]);
    expect(a).toBe(b);
    expect(server.requests.length).toBe(before + 1);
  });

  it("deletes the partial file and errors on a checksum mismatch", async () => {
    const cacheDir = path.join(dir, "badsum");
    const wrong = "0".repeat(64);
    const err = await resolveLocalModelFile("tiny", {
      cacheDir,
      allowDownload: true,
      presets: preset({ sha256: wrong }),
    }).catch((e: unknown) => e as Error);
    expect((err as Error).message).toMatch(new RegExp(`Checksum mismatch.*${payloadSha}.*expected ${wrong}`));
    expect((err as Error).message).toContain("LOCAL_MODEL_PATH=");
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("deletes the partial file when the connection drops mid-download", async () => {
    const cacheDir = path.join(dir, "drop");
    const err = await resolveLocalModelFile("tiny", {
      cacheDir,
      allowDownload: true,
      presets: preset({ url: `${server.url}/drop.gguf` }),
    }).catch((e: unknown) => e as Error);
    expect((err as Error).message).toMatch(/Could not download tiny from .*drop\.gguf/);
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("times out a stalled download", async () => {
    const cacheDir = path.join(dir, "stall");
    const t0 = Date.now();
    const err = await resolveLocalModelFile("tiny", {
      cacheDir,
      allowDownload: true,
      stallTimeoutMs: 300,
      presets: preset({ url: `${server.url}/stall.gguf` }),
    }).catch((e: unknown) => e as Error);
    expect((err as Error).message).toMatch(/no data for/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("reports HTTP errors with the status", async () => {
    await expect(
      resolveLocalModelFile("tiny", {
        cacheDir: path.join(dir, "404"),
        allowDownload: true,
        presets: preset({ url: `${server.url}/missing.gguf` }),
      }),
    ).rejects.toThrow(/HTTP 404/);
  });

  it("re-downloads a corrupted cached file", async () => {
    const cacheDir = path.join(dir, "corrupt");
    const opts = { cacheDir, allowDownload: true, presets: preset() };
    const file = await resolveLocalModelFile("tiny", opts);
    await writeFile(file, Buffer.alloc(payload.length, 1)); // same size, wrong bytes
    await rm(`${file}.sha256`);
    const before = server.requests.length;
    expect(await resolveLocalModelFile("tiny", opts)).toBe(file);
    expect(server.requests.length).toBe(before + 1);
    expect((await readFile(file)).equals(payload)).toBe(true);
    expect((await stat(file)).size).toBe(payload.length);
  });

  it("verifies a file copied into the cache by hand and records its hash", async () => {
    const cacheDir = path.join(dir, "manual");
    const opts = { cacheDir, allowDownload: false, presets: preset() };
    await resolveLocalModelFile("tiny", { ...opts, allowDownload: true });
    const file = path.join(cacheDir, "tiny-download.gguf");
    await rm(`${file}.sha256`);
    expect(await resolveLocalModelFile("tiny", opts)).toBe(file);
    expect(await readFile(`${file}.sha256`, "utf8")).toContain(payloadSha);
  });
});

describe("createDownloadProgressBar", () => {
  it("prints plain progress lines when the stream is not a terminal", () => {
    const out = new PassThrough() as PassThrough & { isTTY?: boolean };
    out.isTTY = false;
    let text = "";
    out.on("data", (d: Buffer) => (text += d.toString()));
    const bar = createDownloadProgressBar({ label: "Model", stream: out as unknown as NodeJS.WriteStream });
    const total = 100_000_000;
    for (let r = 0; r <= total; r += total / 40) bar.onProgress({ received: r, total });
    bar.stop();
    const lines = text.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(lines.length).toBeLessThanOrEqual(13);
    expect(text).toContain("Model: 50.0 MB of 100.0 MB (50%)");
    expect(lines.at(-1)).toBe("Model: done, 100.0 MB");
  });
});
