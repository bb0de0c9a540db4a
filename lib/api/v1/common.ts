import { z } from "zod";
import "zod-openapi";
import { apiUrl } from "../absolute-url";
import { ApiError } from "../endpoint";
import { DebateRequestError } from "@/lib/debate/start";
import { ModelNotAllowedError } from "@/lib/ai/web-models";

/** Schemas and helpers several endpoints share. */

export const uuidParam = z.object({
  id: z
    .string()
    .uuid()
    .meta({ description: "The id Counterpoint gave it.", example: "3f1c2a4e-8b7d-4c1e-9a2f-0e5d6c7b8a91" }),
});

export const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "use the form YYYY-MM-DD")
  .meta({ description: "When the claim was made (evidence published after it is left out).", example: "2022-05-01" });

/** Unknown fields are refused by name, so a misspelt field is not silently ignored. */
export function strictObject<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? `unknown field ${iss.keys.map((k) => `"${k}"`).join(", ")}; /api/v1/openapi.json lists the fields`
        : undefined,
  });
}

export const modelsField = z.record(z.string(), z.string().trim()).optional().meta({
  description:
    "Model id per role (e.g. `judge`); roles left out use the server's ROLE_MODELS, then DEFAULT_MODEL. Only models the server names are accepted.",
  example: {},
});

/** A refusal from starting a debate or comparison, said as the API's 400 with the API's field names. */
export function startRefusal(e: unknown, fields: Record<string, string> = {}): never {
  if (e instanceof DebateRequestError) {
    const field = e.field ? (fields[e.field] ?? fields[e.field.split(".")[0]!] ?? e.field) : undefined;
    throw new ApiError(400, "invalid_request", e.message, field);
  }
  if (e instanceof ModelNotAllowedError) throw new ApiError(400, "invalid_request", e.message, `models.${e.role}`);
  throw e;
}

export const debateLinks = (id: string) => ({
  self: apiUrl(`/api/v1/debates/${id}`),
  events: apiUrl(`/api/v1/debates/${id}/events`),
  page: apiUrl(`/debates/${id}`),
});

export const linksSchema = z.object({
  self: z.string().meta({ description: "This resource in the API (absolute, as every URL the API answers)." }),
  events: z.string().optional().meta({ description: "Its live events (server-sent events)." }),
  page: z.string().meta({ description: "Its page for people." }),
});
