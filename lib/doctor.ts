import { getConfig, ConfigError, type AppConfig } from "@/lib/config";
import { getDb, pgvectorVersion } from "@/db/client";
import { migrationStatus } from "@/db/migrate";
import { callModel } from "@/lib/ai/call";
import { configuredModelIds, resolveModel, type ResolvedModel } from "@/lib/ai/registry";
import { miniLmEngineStatus, resolveEmbedder } from "@/lib/embeddings/registry";
import { PUBLIC_URL_NEEDED, publicUrlNotice } from "@/lib/net/public-url";
import { embeddingStatus, missingSteps, modelStatus } from "@/lib/health";

/**
 * `counterpoint doctor`: actually exercises each configured part (opens and migrates the database,
 * embeds a sentence, makes a one-token call to every configured model) and says what to do about
 * anything missing. Never downloads a model.
 */

/** `warn`: works, but something readers depend on needs setting (it does not fail the report). */
export type CheckStatus = "ok" | "missing" | "failed" | "skipped" | "warn";
export type Check = { name: string; status: CheckStatus; detail: string; fix?: string; ms?: number };
export type DoctorReport = { ok: boolean; checks: Check[]; missing: string[] };

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await fn();
  return { value, ms: Math.round(performance.now() - t) };
}

async function checkDatabase(config: AppConfig): Promise<Check> {
  try {
    const { value: handle, ms } = await timed(() => getDb());
    const [version, migrations] = await Promise.all([
      pgvectorVersion(handle.db),
      migrationStatus(handle, config.migrationsDir),
    ]);
    const where =
      handle.backend === "pglite" ? `embedded PGlite at ${handle.location}` : `PostgreSQL at ${handle.location}`;
    if (!version) {
      return {
        name: "database",
        status: "failed",
        detail: `${where}: the vector extension is not installed`,
        fix: "Install pgvector on the server (scripts/setup-postgres.sh does it on Debian), then run `npx counterpoint migrate`.",
      };
    }
    return {
      name: "database",
      status: "ok",
      detail: `${where}; pgvector ${version}; migrations ${migrations.applied}/${migrations.available} applied`,
      ms,
    };
  } catch (e) {
    return {
      name: "database",
      status: "failed",
      detail: (e as Error).message,
      fix:
        config.database.backend === "postgres"
          ? "Check DATABASE_URL and that the server is running."
          : "Check that DATA_DIR is writable.",
    };
  }
}

async function checkEmbedding(config: AppConfig): Promise<Check> {
  const status = embeddingStatus(config);
  if (!status.ready)
    return {
      name: `embedding ${status.id}`,
      status: "missing",
      detail: status.problem ?? "not ready",
      fix: "Set EMBEDDING_MODEL to local:minilm-l6 or local:use-lite (both offline) or a configured provider's embedding model.",
    };
  try {
    const embedder = resolveEmbedder(config.embeddingModel, config);
    const { value, ms } = await timed(() => embedder.embed(["Counterpoint checks claims against evidence."]));
    const dims = `${value[0]?.length} dimensions`;
    const engine = miniLmEngineStatus(embedder.id);
    if (engine?.fallbackReason) {
      return {
        name: `embedding ${status.id}`,
        status: "ok",
        detail: `${dims}; runs on the WebAssembly engine because onnxruntime-node could not load (${engine.fallbackReason}): same vectors, about five times slower. To run natively, run npm install again (onnxruntime-node ships CPU binaries for Linux, macOS and Windows, x64 and arm64)`,
        ms,
      };
    }
    if (engine?.graph) {
      const { verifyGraph } = await import("@/lib/embeddings/minilm/graph-cache.mjs");
      const check = verifyGraph({
        cacheDir: config.local.cacheDir,
        variant: engine.engine === "onnx-int8" ? "int8" : "fp32",
      });
      const runs = `runs on onnxruntime-node (CPU, ${engine.engine === "onnx-int8" ? "int8" : "fp32"} graph ${engine.graph.path})`;
      if (check.optimized.state === "mismatch")
        return {
          name: `embedding ${status.id}`,
          status: "failed",
          detail: `${dims}; ${runs}, but the optimised copy ${check.optimized.path} does not match the SHA-256 recorded when it was saved`,
          fix: `Delete the folder ${check.optimized.path}; it is made again at the next start.`,
          ms,
        };
      if (check.state !== "ok")
        return {
          name: `embedding ${status.id}`,
          status: "failed",
          detail: `${dims}; ${runs}, but the graph's SHA-256 does not match the one recorded when it was built`,
          fix: `Delete ${engine.graph.path}; it is rebuilt from the npm weights at the next start.`,
          ms,
        };
      return {
        name: `embedding ${status.id}`,
        status: "ok",
        detail: `${dims}; ${runs}, SHA-256 ${check.sha256!.slice(0, 12)}… as recorded`,
        ms,
      };
    }
    return { name: `embedding ${status.id}`, status: "ok", detail: dims, ms };
  } catch (e) {
    return { name: `embedding ${status.id}`, status: "failed", detail: (e as Error).message };
  }
}

/** A local model is only checked if its file is already here: doctor must not start a 1 GB download. */
async function localFileAvailable(model: ResolvedModel, config: AppConfig): Promise<string | undefined> {
  const { resolveLocalModelFile } = await import("@/lib/ai/local/model-file");
  try {
    await resolveLocalModelFile(model.ref.name, {
      cacheDir: config.local.cacheDir,
      modelPath: config.local.modelPath,
      allowDownload: false,
    });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** One model, checked with a one-token call (never a download); also the Admin page's check before saving model settings. */
export async function checkModel(id: string, config: AppConfig): Promise<Check> {
  const status = modelStatus(id, config);
  if (!status.ready)
    return {
      name: `model ${id}`,
      status: "missing",
      detail: (status.problem ?? "not configured").replace(`${id}: `, ""),
    };
  const model = resolveModel(id, config);
  if (model.provider === "local") {
    const problem = await localFileAvailable(model, config);
    if (problem) return { name: `model ${id}`, status: "missing", detail: problem };
  }
  try {
    const { value: call, ms } = await timed(() =>
      callModel({
        model,
        purpose: "doctor",
        messages: [{ role: "user", content: "Reply with the single word OK." }],
        maxOutputTokens: 1,
        maxRetries: 0,
        timeoutMs: 60_000,
        providerOptions: model.scoring === "top-logprobs" ? model.logprobsOptions?.(5) : undefined,
      }),
    );
    let scoring: string = model.scoring;
    if (model.scoring === "top-logprobs" && !model.readLogprobs?.(call.providerMetadata)?.length) {
      scoring =
        "none (the server returned no logprobs; set OPENAI_COMPATIBLE_<NAME>_LOGPROBS=false to use the fallback)";
    }
    return {
      name: `model ${id}`,
      status: "ok",
      detail: `answered "${call.text.trim()}" (${call.usage.promptTokens}+${call.usage.completionTokens} tokens); option scoring: ${scoring}`,
      ms,
    };
  } catch (e) {
    return {
      name: `model ${id}`,
      status: "failed",
      detail: (e as Error).message,
      fix: "Check the API key, base URL and model name.",
    };
  }
}

export async function runDoctor(opts: { skipModels?: boolean } = {}): Promise<DoctorReport> {
  let config: AppConfig;
  try {
    config = getConfig();
  } catch (e) {
    const problems = e instanceof ConfigError ? e.problems : [(e as Error).message];
    return {
      ok: false,
      checks: [
        {
          name: "configuration",
          status: "failed",
          detail: problems.join("; "),
          fix: "Fix the variables named above (see .env.example).",
        },
      ],
      missing: problems,
    };
  }
  const checks: Check[] = [{ name: "configuration", status: "ok", detail: "environment is valid" }];
  checks.push(await checkDatabase(config));
  // Opening the database read the model settings saved on /admin: check what is in use now.
  config = getConfig();
  checks.push(
    config.publicUrl
      ? { name: "public address", status: "ok", detail: `PUBLIC_URL ${config.publicUrl}` }
      : {
          // In production nothing else may build absolute links (lib/net/public-url.ts); elsewhere the Host header does.
          name: "public address",
          status: publicUrlNotice(config) ? "warn" : "skipped",
          detail: PUBLIC_URL_NEEDED,
        },
  );
  checks.push(await checkEmbedding(config));
  const ids = configuredModelIds(config);
  for (const id of ids) {
    checks.push(
      opts.skipModels
        ? { name: `model ${id}`, status: "skipped", detail: "--skip-models" }
        : await checkModel(id, config),
    );
  }
  const llms = ids.map((id) => modelStatus(id, config));
  const missing = missingSteps(llms, embeddingStatus(config));
  for (const c of checks)
    if ((c.status === "missing" || c.status === "warn") && !missing.some((m) => m.includes(c.detail)))
      missing.push(`${c.name}: ${c.detail}`);
  return {
    ok: checks.every((c) => c.status === "ok" || c.status === "skipped" || c.status === "warn"),
    checks,
    missing,
  };
}
