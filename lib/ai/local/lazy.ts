import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { AppConfig } from "@/lib/config";

type LocalConfig = AppConfig["local"];

export type LazyLocalModel = LanguageModelV3 & {
  nextTokenDistribution(
    prompt: LanguageModelV3Prompt,
    assistantPrefix: string,
  ): Promise<Array<{ token: string; prob: number }>>;
};

/**
 * `local:` models are files of a gigabyte or more. Resolving the id must stay cheap (health checks,
 * forms), so the file is found, downloaded if needed, and loaded only on the first real call.
 */
export function lazyLocalModel(spec: string, modelId: string, config: LocalConfig): LazyLocalModel {
  let loading: ReturnType<typeof load> | undefined;
  async function load() {
    const [{ resolveLocalModelFile, createDownloadProgressBar }, { createLocalLanguageModel }] = await Promise.all([
      import("./model-file"),
      import("./provider"),
    ]);
    // A download can take minutes: show progress on a terminal, periodic lines in server logs.
    const progress = createDownloadProgressBar();
    try {
      const modelPath = await resolveLocalModelFile(spec, {
        cacheDir: config.cacheDir,
        modelPath: config.modelPath,
        allowDownload: config.allowDownload,
        baseUrl: config.baseUrl,
        onProgress: progress.onProgress,
      });
      return createLocalLanguageModel({ modelPath, modelId, contextSize: config.contextSize, threads: config.threads });
    } finally {
      progress.stop();
    }
  }
  const get = () => {
    loading ??= load();
    // A failed load (no file, no network) is retried on the next call rather than cached.
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return {
    specificationVersion: "v3",
    provider: "local",
    modelId,
    supportedUrls: {},
    doGenerate: async (options: LanguageModelV3CallOptions) => (await get()).doGenerate(options),
    doStream: async (options: LanguageModelV3CallOptions) => (await get()).doStream(options),
    nextTokenDistribution: async (prompt, prefix) => (await get()).nextTokenDistribution(prompt, prefix),
  };
}
