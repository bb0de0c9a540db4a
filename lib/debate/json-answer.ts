import type { z } from "zod";

/**
 * Reads a model's JSON answer. Models wrap JSON in prose or a ```json fence, and sometimes think
 * aloud in braces first; the answer is the fenced block, else the last balanced {...} or [...]
 * block (strings respected). What then fails the schema is reported with where and what, for the
 * repair prompt and the stored `unparsed` record.
 */
export type JsonReading<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Top-level balanced JSON-looking blocks, in order. */
function balancedBlocks(text: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && depth > 0) inString = true;
    else if (c === "{" || c === "[") {
      if (depth === 0) start = i;
      depth++;
    } else if ((c === "}" || c === "]") && depth > 0) {
      depth--;
      if (depth === 0) blocks.push(text.slice(start, i + 1));
    }
  }
  return blocks;
}

/** The answer's JSON text, with its value when it parsed (each block is parsed once). */
function candidate(text: string): { raw: string; json?: unknown } | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) return { raw: fenced[1]!.trim() };
  const blocks = balancedBlocks(text);
  // The last block that is JSON at all; else the last block, so the parse error can be reported.
  for (let i = blocks.length - 1; i >= 0; i--) {
    try {
      return { raw: blocks[i]!, json: JSON.parse(blocks[i]!) };
    } catch {
      // Not JSON: an earlier block may be.
    }
  }
  const last = blocks.at(-1);
  return last === undefined ? null : { raw: last };
}

export function readJsonAnswer<S extends z.ZodType>(text: string, schema: S): JsonReading<z.output<S>> {
  const found = candidate(text);
  if (found === null) return { ok: false, problem: "the answer contains no JSON object" };
  let json: unknown = found.json;
  if (!("json" in found)) {
    try {
      json = JSON.parse(found.raw);
    } catch (e) {
      return { ok: false, problem: `the JSON does not parse (${(e as Error).message})` };
    }
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const where = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`)
    .join("; ");
  return { ok: false, problem: `the JSON does not match the format (${where})` };
}
