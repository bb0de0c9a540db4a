import path from "node:path";
import { z } from "zod";
import { EMPTY_ALLOW_LIST, parseAllowList, type AllowList } from "@/lib/net/address-policy";
import { compileTrust } from "@/lib/auth/client-ip";
import { peekProcessGlobal } from "@/lib/process/globals";

/**
 * The one place that reads the environment. Everything else asks `getConfig()`,
 * so a bad value is caught once, at start-up, with the variable's name in the message.
 * Model providers and choices may also be saved on /admin; those win (see `getConfig`).
 */

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = z.coerce.number().int().positive();

/** `name=value,name=value` lists, used for per-role models and per-provider limits. */
const keyValueList = z.string().transform((raw, ctx) => {
  const out: Record<string, string> = {};
  for (const part of raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf("=");
    if (eq <= 0 || eq === part.length - 1) {
      ctx.addIssue({ code: "custom", message: `expected name=value, got "${part}"` });
      return z.NEVER;
    }
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
});

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  /** Derives each debate's prompt fence (lib/debate/fence.ts); unset: a secret kept in the database. */
  FENCE_SECRET: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)").optional(),
  MIGRATIONS_DIR: z.string().min(1).optional(),

  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.url().optional(),

  LOCAL_MODEL_PATH: z.string().min(1).optional(),
  LOCAL_MODEL_CACHE_DIR: z.string().min(1).optional(),
  LOCAL_MODEL_DOWNLOAD: bool.default(true),
  /** Where presets are downloaded from instead of Hugging Face (a mirror, or a test server): <base>/<file name>. */
  LOCAL_MODEL_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOCAL_CONTEXT_SIZE: positiveInt.default(8192),
  LOCAL_THREADS: positiveInt.optional(),

  DEFAULT_MODEL: z.string().min(1).optional(),
  ROLE_MODELS: keyValueList.optional(),
  /** More model ids the web forms may offer, besides DEFAULT_MODEL and ROLE_MODELS (comma-separated). */
  WEB_MODELS: z
    .string()
    .transform((raw) =>
      raw
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(openai|anthropic|openai-compatible|local):\S+$/,
            "expected model ids such as openai:gpt-4o-mini, comma-separated",
          ),
      ),
    )
    .optional(),
  /** Must equal DEFAULT_EMBEDDING_MODEL in lib/embeddings/registry.ts (which imports this file). */
  EMBEDDING_MODEL: z.string().min(1).default("local:minilm-l6"),

  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(4),
  LLM_TIMEOUT_MS: positiveInt.default(120_000),
  PROVIDER_CONCURRENCY: keyValueList.optional(),
  PRICES_FILE: z.string().min(1).optional(),
  /** Debates one user (or address, without accounts) may start per window, e.g. 20/hour. */
  DEBATE_RATE_LIMIT: z
    .string()
    .regex(/^\d+\/(minute|hour|day)$/, "use N/minute, N/hour or N/day, e.g. 20/hour")
    .default("20/hour"),
  /** Requests one API token may make per window (each token counted on its own), e.g. 600/hour. */
  API_TOKEN_RATE_LIMIT: z
    .string()
    .regex(/^\d+\/(minute|hour|day)$/, "use N/minute, N/hour or N/day, e.g. 600/hour")
    .default("600/hour"),
  /** Debates one evaluation run started from the web may create (after its limit and sample); the CLI has no cap. */
  EVAL_WEB_MAX_CLAIMS: z.coerce.number().int().positive("must be a whole number above 0, e.g. 500").default(500),
  /** Evaluation runs one person may start from the web per window, e.g. 10/day. */
  EVAL_WEB_RUN_LIMIT: z
    .string()
    .regex(/^\d+\/(minute|hour|day)$/, "use N/minute, N/hour or N/day, e.g. 10/day")
    .default("10/day"),
  /** Session cookies are Secure when the proxy says https; `true` forces it (TLS terminated elsewhere without the header). */
  COOKIE_SECURE: bool.default(false),
  /** On PostgreSQL, the app server also runs queued debates itself (lib/debate/queue.ts); false when only `counterpoint worker` processes should. */
  IN_PROCESS_WORKER: bool.default(true),
  /** Debates the app's in-process worker runs at once. */
  IN_PROCESS_WORKER_CONCURRENCY: positiveInt.default(4),
  /** PostgreSQL: a debate whose runner has not beaten for this long is taken over by another worker; the same value in every process. */
  DEBATE_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(3, "must be at least 3 (runners beat every few seconds), e.g. 15")
    .max(3600)
    .default(15),
  /** The publisher named as author in ClaimReview exports. */
  ORGANISATION_NAME: z.string().min(1).default("Counterpoint"),
  ORGANISATION_URL: z.url().optional(),

  // --- Fetching URLs (lib/net/safe-fetch.ts) ---
  /** Intranet hosts and networks URL fetches may reach; everything private or local is refused otherwise. */
  FETCH_ALLOW_HOSTS: z
    .string()
    .transform((raw, ctx) => {
      try {
        return parseAllowList(raw);
      } catch (e) {
        ctx.addIssue({ code: "custom", message: (e as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  // --- Webhooks (lib/webhooks) ---
  /** The first retry's wait; each next one waits four times longer (30 s, 2 min, 8 min, 32 min, 2 h 8 min). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce
    .number()
    .min(0.01, "must be at least 0.01 (seconds), e.g. 30")
    .max(3600)
    .default(30),
  /** Attempts per delivery, the first included, before it is recorded as failed. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1, "must be at least 1, e.g. 6").max(20).default(6),
  // --- Search tools (lib/tools): nothing leaves this server unless one of these is set ---
  /** corpus (offline stand-in) | tavily | brave | searxng | wikipedia; unset: tavily or brave when its key is set, else corpus. */
  WEB_SEARCH_PROVIDER: z
    .enum(["corpus", "tavily", "brave", "searxng", "wikipedia"], {
      error: "use corpus, tavily, brave, searxng or wikipedia",
    })
    .optional(),
  TAVILY_API_KEY: z.string().min(1).optional(),
  TAVILY_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) address such as https://api.tavily.com" })
    .optional(),
  BRAVE_API_KEY: z.string().min(1).optional(),
  BRAVE_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) address such as https://api.search.brave.com" })
    .optional(),
  SEARXNG_BASE_URL: z
    .url({
      protocol: /^https?$/,
      error: "must be the http(s) address of a SearXNG instance, e.g. http://searx.intranet:8080",
    })
    .optional(),
  WIKIPEDIA_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) address such as https://en.wikipedia.org" })
    .optional(),
  /** Where `dataset download` fetches from instead of https://raw.githubusercontent.com (a mirror; a scripted server in tests). */
  DATASETS_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) address such as https://raw.githubusercontent.com" })
    .optional(),
  /** The corpus the offline stand-in searches; default: the debate's own corpus. */
  SEARCH_CORPUS: z.string().min(1).optional(),
  SEARCH_TIMEOUT_MS: positiveInt.default(20_000),
  // --- Claim matching: Google Fact Check Tools claims:search (lib/matching/factcheck-tools.ts); no call unless a key is set ---
  FACTCHECK_TOOLS_API_KEY: z.string().min(1).optional(),
  FACTCHECK_TOOLS_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) address such as https://factchecktools.googleapis.com" })
    .optional(),
  /** BCP-47 language of the fact-checks asked for, e.g. en or de; "any" asks for every language. */
  FACTCHECK_TOOLS_LANGUAGE: z
    .string()
    .regex(/^(any|[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*)$/, "use a language code such as en or pt-BR, or any")
    .default("en"),
  /** Only fact-checks published in the last N days; unset: any age. */
  FACTCHECK_TOOLS_MAX_AGE_DAYS: positiveInt.optional(),
  // --- ZoFia's entity and encyclopedia tools (lib/tools/ner, lib/tools/wiki) ---
  NER_PROVIDER: z
    .enum(["rule", "http"], {
      error:
        "use rule (offline, heuristic confidences) or http (an NER endpoint at NER_URL); transformers is not built into this server",
    })
    .default("rule"),
  NER_URL: z
    .url({
      protocol: /^https?$/,
      error: "must be the http(s) address of an NER endpoint, e.g. http://127.0.0.1:8090/ner",
    })
    .optional(),
  WIKI_PROVIDER: z
    .enum(["none", "wikipedia-rest", "corpus"], {
      error: "use none (offline), wikipedia-rest or corpus (with WIKI_CORPUS)",
    })
    .default("none"),
  /** The corpus whose documents are encyclopedia entries (titles as entry names) for WIKI_PROVIDER=corpus. */
  WIKI_CORPUS: z.string().min(1).optional(),
  // --- exports and client addresses (see .env.example) ---
  /**
   * The address people use to reach the site, e.g. https://factcheck.example.org: every absolute
   * link the product writes (share links, exports, ClaimReview `url`s) starts with it. An origin
   * only: no path, query, fragment or credentials.
   */
  PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      error: "must be the http(s) address people use to reach the site, such as https://factcheck.example.org",
    })
    .refine((u) => {
      // Runs after a failed URL check too (zod reports every problem): a non-URL is that check's to name.
      if (!URL.canParse(u)) return true;
      const x = new URL(u);
      return (
        !x.username &&
        !x.password &&
        !x.search &&
        !x.hash &&
        (x.pathname === "/" || x.pathname === "") &&
        x.hostname !== "0.0.0.0" &&
        x.hostname !== "[::]"
      );
    }, "must be an origin only (scheme, host and optional port, e.g. https://factcheck.example.org), not a listen address like 0.0.0.0, and without a path, query or credentials")
    .optional(),
  /** The earlier name of PUBLIC_URL, still read when PUBLIC_URL is unset. */
  APP_URL: z
    .url({
      protocol: /^https?$/,
      error: "must be an http(s) address such as https://factcheck.example.org (APP_URL is the old name of PUBLIC_URL)",
    })
    .optional(),
  /** Proxies whose X-Forwarded-For is believed: addresses, CIDRs, or loopback / linklocal / uniquelocal. */
  TRUSTED_PROXIES: z.string().optional(),
});

export type OpenAICompatibleConfig = {
  name: string;
  baseURL: string;
  apiKey?: string;
  model?: string;
  /** Whether the server returns top_logprobs (vLLM, llama.cpp server and Ollama do). */
  logprobs: boolean;
};

export type AppConfig = {
  database: { backend: "pglite"; dataDir: string } | { backend: "postgres"; url: string };
  dataDir: string;
  migrationsDir: string;
  openai: { apiKey?: string; baseURL?: string };
  anthropic: { apiKey?: string; baseURL?: string };
  openaiCompatible: Record<string, OpenAICompatibleConfig>;
  local: {
    modelPath?: string;
    cacheDir: string;
    allowDownload: boolean;
    /** LOCAL_MODEL_BASE_URL: presets come from <baseUrl>/<file name> instead of their own address. */
    baseUrl?: string;
    contextSize: number;
    threads?: number;
  };
  /** `web`: WEB_MODELS, extra ids the web forms may pick (lib/ai/web-models.ts). */
  models: { default?: string; roles: Record<string, string>; web?: string[] };
  embeddingModel: string;
  llm: { maxRetries: number; timeoutMs: number; concurrency: Record<string, number> };
  pricesFile?: string;
  rateLimits: {
    debateStarts: { limit: number; windowSeconds: number };
    apiTokenRequests: { limit: number; windowSeconds: number };
  };
  /** What a run started from the web may be (lib/eval/web-run.ts). */
  evalWeb: { maxClaims: number; runs: { limit: number; windowSeconds: number; spec: string } };
  cookieSecure: boolean;
  /** The app server's own debates worker (PostgreSQL only; PGlite runs every debate in its one process anyway). */
  inProcessWorker: { enabled: boolean; concurrency: number };
  /** DEBATE_LEASE_SECONDS in milliseconds (lib/debate/runner.ts, lib/debate/queue.ts). */
  debateLeaseMs: number;
  /** FENCE_SECRET: the same in every process; unset, the database keeps one. */
  fenceSecret?: string;
  organisation: { name: string; url?: string };
  fetch: { allow: AllowList };
  /** Delivery retries (lib/webhooks/schedule.ts). */
  webhooks: { retryBaseMs: number; maxAttempts: number };
  /** `dataset download`: the host serving the raw files, when not the public one. */
  datasets: { baseURL?: string };
  /** The search tool's source (lib/tools/resolve.ts). Keys live here only; records never carry them. */
  search: SearchConfig;
  /** Google Fact Check Tools for claim matching; `apiKey` unset: never called. */
  factcheckTools: { apiKey?: string; baseURL?: string; language: string; maxAgeDays?: number };
  /** ZoFia's NER and encyclopedia providers (NER_PROVIDER, NER_URL, WIKI_PROVIDER). */
  zofia: {
    ner: { provider: "rule" | "http"; url?: string };
    wiki: { provider: "none" | "wikipedia-rest" | "corpus"; corpus?: string };
  };
  /** PUBLIC_URL (or the old APP_URL) without a trailing slash; unset means "not known" (see lib/net/public-url.ts). */
  publicUrl?: string;
  /** Addresses and CIDRs of reverse proxies trusted to report the client's address; empty trusts none. */
  trustedProxies: string[];
};

export type SearchProviderId = "corpus" | "tavily" | "brave" | "searxng" | "wikipedia";
export type SearchConfig = {
  provider: SearchProviderId;
  /** Whether WEB_SEARCH_PROVIDER chose it, or a key alone did. */
  chosenBy: "WEB_SEARCH_PROVIDER" | "TAVILY_API_KEY" | "BRAVE_API_KEY" | "default";
  tavily: { apiKey?: string; baseURL?: string };
  brave: { apiKey?: string; baseURL?: string };
  searxng: { baseURL?: string };
  wikipedia: { baseURL?: string };
  corpus?: string;
  timeoutMs: number;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(
      `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}\nSee .env.example for every variable.`,
    );
    this.name = "ConfigError";
  }
}

const DEFAULT_CONCURRENCY: Record<string, number> = {
  openai: 8,
  anthropic: 4,
  "openai-compatible": 4,
  local: 1,
};

const COMPAT_VAR = /^OPENAI_COMPATIBLE_([A-Z0-9_]+?)_(BASE_URL|API_KEY|MODEL|LOGPROBS)$/;

/** `OPENAI_COMPATIBLE_<NAME>_BASE_URL` etc. define the server named `<name>` (lower-cased, `_` -> `-`). */
function readOpenAICompatible(env: Record<string, string | undefined>, problems: string[]) {
  const byName: Record<string, Partial<Record<string, string>>> = {};
  for (const [key, value] of Object.entries(env)) {
    const m = COMPAT_VAR.exec(key);
    if (!m || value === undefined || value === "") continue;
    const name = m[1]!.toLowerCase().replace(/_/g, "-");
    (byName[name] ??= {})[m[2]!] = value;
  }
  const out: Record<string, OpenAICompatibleConfig> = {};
  for (const [name, vars] of Object.entries(byName)) {
    const prefix = `OPENAI_COMPATIBLE_${name.toUpperCase().replace(/-/g, "_")}`;
    if (!vars.BASE_URL) {
      problems.push(`${prefix}_BASE_URL is required when other ${prefix}_* variables are set`);
      continue;
    }
    if (!z.url().safeParse(vars.BASE_URL).success) {
      problems.push(`${prefix}_BASE_URL: must be a URL such as http://127.0.0.1:11434/v1, got "${vars.BASE_URL}"`);
      continue;
    }
    const logprobs =
      vars.LOGPROBS === undefined ? { success: true as const, data: true } : bool.safeParse(vars.LOGPROBS);
    if (!logprobs.success) {
      problems.push(`${prefix}_LOGPROBS: must be true or false, got "${vars.LOGPROBS}"`);
      continue;
    }
    out[name] = { name, baseURL: vars.BASE_URL, apiKey: vars.API_KEY, model: vars.MODEL, logprobs: logprobs.data };
  }
  return out;
}

/**
 * Relative paths are resolved against the project root, so the CLI run from a sub-folder and the
 * server find the same data directory. The CLI's entry point sets COUNTERPOINT_ROOT.
 */
export function parseConfig(
  env: Record<string, string | undefined>,
  cwd = env.COUNTERPOINT_ROOT ?? process.cwd(),
): AppConfig {
  const parsed = envSchema.safeParse(
    // Empty strings in .env files mean "unset", not "set to nothing".
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== "")),
  );
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join(".") || "(environment)"}: ${issue.message}`);
    }
  }
  const openaiCompatible = readOpenAICompatible(env, problems);
  const concurrency = { ...DEFAULT_CONCURRENCY };
  if (parsed.success) {
    for (const [provider, raw] of Object.entries(parsed.data.PROVIDER_CONCURRENCY ?? {})) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1)
        problems.push(`PROVIDER_CONCURRENCY: "${provider}=${raw}" must be a whole number >= 1`);
      else concurrency[provider] = n;
    }
  }
  if (parsed.success && parsed.data.TRUSTED_PROXIES) {
    for (const entry of parsed.data.TRUSTED_PROXIES.split(",")
      .map((p) => p.trim())
      .filter(Boolean)) {
      try {
        compileTrust([entry]);
      } catch {
        problems.push(
          `TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
        );
      }
    }
  }
  if (parsed.success) {
    const d = parsed.data;
    const needs: Record<string, [string, string | undefined]> = {
      tavily: ["TAVILY_API_KEY", d.TAVILY_API_KEY],
      brave: ["BRAVE_API_KEY", d.BRAVE_API_KEY],
      searxng: ["SEARXNG_BASE_URL", d.SEARXNG_BASE_URL],
    };
    const need = d.WEB_SEARCH_PROVIDER ? needs[d.WEB_SEARCH_PROVIDER] : undefined;
    if (need && !need[1])
      problems.push(
        `WEB_SEARCH_PROVIDER=${d.WEB_SEARCH_PROVIDER} needs ${need[0]}; set it, or set WEB_SEARCH_PROVIDER=corpus to search the offline stand-in`,
      );
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);

  const e = parsed.data;
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  return {
    database: e.DATABASE_URL
      ? { backend: "postgres", url: e.DATABASE_URL }
      : { backend: "pglite", dataDir: path.join(dataDir, "pglite") },
    dataDir,
    migrationsDir: path.resolve(cwd, e.MIGRATIONS_DIR ?? "db/migrations"),
    openai: { apiKey: e.OPENAI_API_KEY, baseURL: e.OPENAI_BASE_URL },
    anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseURL: e.ANTHROPIC_BASE_URL },
    openaiCompatible,
    local: {
      modelPath: e.LOCAL_MODEL_PATH ? path.resolve(cwd, e.LOCAL_MODEL_PATH) : undefined,
      cacheDir: path.resolve(cwd, e.LOCAL_MODEL_CACHE_DIR ?? path.join(e.DATA_DIR, "models")),
      allowDownload: e.LOCAL_MODEL_DOWNLOAD,
      baseUrl: e.LOCAL_MODEL_BASE_URL,
      contextSize: e.LOCAL_CONTEXT_SIZE,
      threads: e.LOCAL_THREADS,
    },
    models: { default: e.DEFAULT_MODEL, roles: e.ROLE_MODELS ?? {}, web: e.WEB_MODELS ?? [] },
    embeddingModel: e.EMBEDDING_MODEL,
    llm: { maxRetries: e.LLM_MAX_RETRIES, timeoutMs: e.LLM_TIMEOUT_MS, concurrency },
    pricesFile: e.PRICES_FILE ? path.resolve(cwd, e.PRICES_FILE) : undefined,
    rateLimits: { debateStarts: rate(e.DEBATE_RATE_LIMIT), apiTokenRequests: rate(e.API_TOKEN_RATE_LIMIT) },
    evalWeb: { maxClaims: e.EVAL_WEB_MAX_CLAIMS, runs: { ...rate(e.EVAL_WEB_RUN_LIMIT), spec: e.EVAL_WEB_RUN_LIMIT } },
    cookieSecure: e.COOKIE_SECURE,
    inProcessWorker: { enabled: e.IN_PROCESS_WORKER, concurrency: e.IN_PROCESS_WORKER_CONCURRENCY },
    debateLeaseMs: e.DEBATE_LEASE_SECONDS * 1000,
    fenceSecret: e.FENCE_SECRET,
    organisation: { name: e.ORGANISATION_NAME, url: e.ORGANISATION_URL },
    fetch: { allow: e.FETCH_ALLOW_HOSTS ?? EMPTY_ALLOW_LIST },
    webhooks: { retryBaseMs: Math.round(e.WEBHOOK_RETRY_BASE_SECONDS * 1000), maxAttempts: e.WEBHOOK_MAX_ATTEMPTS },
    datasets: { baseURL: e.DATASETS_BASE_URL },
    search: {
      ...(e.WEB_SEARCH_PROVIDER
        ? { provider: e.WEB_SEARCH_PROVIDER, chosenBy: "WEB_SEARCH_PROVIDER" as const }
        : e.TAVILY_API_KEY
          ? { provider: "tavily" as const, chosenBy: "TAVILY_API_KEY" as const }
          : e.BRAVE_API_KEY
            ? { provider: "brave" as const, chosenBy: "BRAVE_API_KEY" as const }
            : { provider: "corpus" as const, chosenBy: "default" as const }),
      tavily: { apiKey: e.TAVILY_API_KEY, baseURL: e.TAVILY_BASE_URL },
      brave: { apiKey: e.BRAVE_API_KEY, baseURL: e.BRAVE_BASE_URL },
      searxng: { baseURL: e.SEARXNG_BASE_URL },
      wikipedia: { baseURL: e.WIKIPEDIA_BASE_URL },
      corpus: e.SEARCH_CORPUS,
      timeoutMs: e.SEARCH_TIMEOUT_MS,
    },
    factcheckTools: {
      apiKey: e.FACTCHECK_TOOLS_API_KEY,
      baseURL: e.FACTCHECK_TOOLS_BASE_URL,
      language: e.FACTCHECK_TOOLS_LANGUAGE,
      maxAgeDays: e.FACTCHECK_TOOLS_MAX_AGE_DAYS,
    },
    zofia: {
      ner: { provider: e.NER_PROVIDER, url: e.NER_URL },
      wiki: { provider: e.WIKI_PROVIDER, corpus: e.WIKI_CORPUS },
    },
    publicUrl: (e.PUBLIC_URL ?? e.APP_URL)?.replace(/\/+$/, ""),
    trustedProxies: (e.TRUSTED_PROXIES ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  };
}

const WINDOW_SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const;
function rate(spec: string) {
  const [n, unit] = spec.split("/") as [string, keyof typeof WINDOW_SECONDS];
  return { limit: Number(n), windowSeconds: WINDOW_SECONDS[unit] };
}

/**
 * Model settings saved on /admin (lib/ai/model-settings.ts): providers, keys and model choices.
 * Field by field they win over the environment; a field left empty there keeps the environment's.
 */
export type ModelOverlay = {
  openai?: { apiKey?: string; baseURL?: string };
  anthropic?: { apiKey?: string; baseURL?: string };
  /** Servers by name; one named like an OPENAI_COMPATIBLE_<NAME>_* server replaces it. */
  openaiCompatible?: Record<string, OpenAICompatibleConfig>;
  local?: { modelPath?: string };
  models?: { default?: string; roles?: Record<string, string>; web?: string[] };
};

/** `base` with the saved model settings laid over it (pure: the admin's check uses it on settings not yet saved). */
export function applyModelOverlay(base: AppConfig, o: ModelOverlay | undefined): AppConfig {
  if (!o) return base;
  return {
    ...base,
    openai: {
      apiKey: o.openai?.apiKey ?? base.openai.apiKey,
      baseURL: o.openai?.baseURL ?? base.openai.baseURL,
    },
    anthropic: {
      apiKey: o.anthropic?.apiKey ?? base.anthropic.apiKey,
      baseURL: o.anthropic?.baseURL ?? base.anthropic.baseURL,
    },
    openaiCompatible: { ...base.openaiCompatible, ...o.openaiCompatible },
    local: { ...base.local, modelPath: o.local?.modelPath ?? base.local.modelPath },
    models: {
      default: o.models?.default ?? base.models.default,
      roles: { ...base.models.roles, ...o.models?.roles },
      web: [...new Set([...(base.models.web ?? []), ...(o.models?.web ?? [])])],
    },
  };
}

let cached: AppConfig | undefined;
let merged: { base: AppConfig; overlay: ModelOverlay; config: AppConfig } | undefined;

/** The environment alone, without the settings saved on /admin (to show what each field falls back to). */
export function getEnvConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * The configuration in force: the environment, with the model settings saved on /admin over it.
 * The overlay is one per process (Next evaluates this module once per bundle), replaced whole when
 * the settings change, so a new object here means "changed" to anyone caching by identity.
 */
export function getConfig(): AppConfig {
  const base = getEnvConfig();
  const overlay = peekProcessGlobal("model-overlay");
  if (!overlay) return base;
  if (merged?.base !== base || merged.overlay !== overlay)
    merged = { base, overlay, config: applyModelOverlay(base, overlay) };
  return merged.config;
}

/** Tests and the CLI's `--data-dir` style overrides need a fresh read. */
export function resetConfigForTests() {
  cached = undefined;
  merged = undefined;
}
