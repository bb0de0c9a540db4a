import { getConfig, type AppConfig } from "@/lib/config";
import { LOCAL_EMBEDDERS } from "./registry";

/**
 * The models a corpus may be re-embedded with from the web: the configured default and the
 * built-in offline ones. The form offers these and the action accepts nothing else, so a request
 * cannot start a job against a provider the operator did not configure.
 */
export function reembedChoices(config: AppConfig = getConfig()): string[] {
  return [...new Set([config.embeddingModel, ...LOCAL_EMBEDDERS.map((n) => `local:${n}`)])];
}
