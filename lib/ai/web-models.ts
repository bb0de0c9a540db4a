import { getConfig, type AppConfig } from "@/lib/config";
import { configuredModelIds } from "./registry";

/**
 * Which models a request from the web may pick. The CLI and admins may name any model id,
 * including a file path (`local:/models/x.gguf`) or a preset that is downloaded on first use; a
 * web form must not, or anyone who may start a debate could make the server open arbitrary files
 * (and learn whether they exist) or download gigabytes. So the web may pick exactly the ids the
 * server's configuration names: DEFAULT_MODEL, the ROLE_MODELS values and WEB_MODELS, or the same
 * choices saved on /admin. An empty
 * choice falls back to the same configuration.
 */
export function webSelectableModels(config: AppConfig = getConfig()): string[] {
  return [...new Set([...configuredModelIds(config), ...(config.models.web ?? [])])];
}

export class ModelNotAllowedError extends Error {
  constructor(
    message: string,
    /** The form's key for the offending choice, e.g. `judge` or `debaters`. */
    public readonly role: string,
  ) {
    super(message);
    this.name = "ModelNotAllowedError";
  }
}

const HOW_TO_ADD =
  "An admin adds a model under Language models on the Admin page (no restart), or lists its id in WEB_MODELS (comma-separated, e.g. WEB_MODELS=openai:gpt-4o-mini,anthropic:claude-haiku-4-5) or in DEFAULT_MODEL / ROLE_MODELS and restarts the server. Model files and downloads are for the command line.";

/**
 * Throws ModelNotAllowedError for the first chosen model (role -> id) outside the allowed list,
 * before anything resolves, opens or fetches it. The message names the allowed models.
 */
export function assertWebModels(chosen: Record<string, string | undefined>, config: AppConfig = getConfig()): void {
  const allowed = webSelectableModels(config);
  for (const [role, raw] of Object.entries(chosen)) {
    const id = raw?.trim();
    if (!id || allowed.includes(id)) continue;
    const shown = id.length > 80 ? `${id.slice(0, 80)}…` : id;
    throw new ModelNotAllowedError(
      allowed.length
        ? `"${shown}" (${role.replace("-", " ")}) is not a model this server offers. Choose one of: ${allowed.join(", ")}, or leave the field empty for the default. ${HOW_TO_ADD}`
        : `"${shown}" (${role.replace("-", " ")}) is not a model this server offers: no model is configured for the web yet. ${HOW_TO_ADD}`,
      role,
    );
  }
}
