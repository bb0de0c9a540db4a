import { getConfig, type AppConfig } from "@/lib/config";
import { LOCAL_EMBEDDERS } from "./registry";

/**
 * The models a corpus may be re-embedded with from the web: the configured default and the
 * built-in offline ones. The form offers these and the action accepts nothing else, so a request
 * cannot start a job against a provider the operator did not configure.
 */
export function reembedChoices(config: AppConfig = getConfig()): string[] {
  // The int8 variant is chosen deliberately through EMBEDDING_MODEL: its recall is within a point of
  // fp32, but its vectors differ, so a corpus embedded with one is not searched with the other.
  const offered = LOCAL_EMBEDDERS.filter((n) => n !== "minilm-l6-int8");
  return [...new Set([config.embeddingModel, ...offered.map((n) => `local:${n}`)])];
}
