import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "@/lib/api/openapi";
import { API_VERSION, ENDPOINTS } from "@/lib/api/v1";

/*
 * Checks a value against a schema of the OpenAPI document with ajv, a validator nobody here wrote
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12): what the document promises is checked against what
 * the server really sent, not against the zod schemas the document was made from.
 */

const doc = openApiDocument(ENDPOINTS, API_VERSION);
// strict: false because the document holds OpenAPI's own keywords (`example`, `paths`) beside the schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(doc as object, "openapi.json");

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** The problems ajv finds with `body` as the webhook `type`'s request body; empty when it conforms. */
export function webhookBodyProblems(type: string, body: unknown): string[] {
  const ref = `openapi.json#/${pointer("webhooks", type, "post", "requestBody", "content", "application/json", "schema")}`;
  const validate = ajv.getSchema(ref);
  if (!validate) return [`the document has no webhook ${type}`];
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message}`);
}
