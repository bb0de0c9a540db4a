import type { z } from "zod";

/**
 * Reads a model's JSON answer. Models wrap JSON in prose or a ```json fence; the object is taken
 * from the fence, else from the first "{" to the last "}". Anything that does not then match the
 * schema is reported with where and what, for the repair prompt and the stored `unparsed` record.
 */
export type JsonReading<T> = { ok: true; value: T } | { ok: false; problem: string };

function candidate(text: string): string | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) return fenced[1]!.trim();
  const start = text.search(/[{[]/);
  if (start < 0) return null;
  const close = text[start] === "{" ? "}" : "]";
  const end = text.lastIndexOf(close);
  return end > start ? text.slice(start, end + 1) : null;
}

export function readJsonAnswer<S extends z.ZodType>(text: string, schema: S): JsonReading<z.output<S>> {
  const raw = candidate(text);
  if (raw === null) return { ok: false, problem: "the answer contains no JSON object" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { ok: false, problem: `the JSON does not parse (${(e as Error).message})` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const where = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`)
    .join("; ");
  return { ok: false, problem: `the JSON does not match the format (${where})` };
}
