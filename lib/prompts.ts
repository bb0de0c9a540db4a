import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Prompts are files in prompts/ with `{{name}}` placeholders. Rendering is strict both ways: a
 * placeholder without a value and a value without a placeholder are both errors, so a renamed
 * variable can never silently send a model a prompt with a hole in it.
 */

const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;

function promptsDir() {
  return path.join(/*turbopackIgnore: true*/ process.env.COUNTERPOINT_ROOT ?? process.cwd(), "prompts");
}

const cache = new Map<string, string>();

export function loadPrompt(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const file = path.join(/*turbopackIgnore: true*/ promptsDir(), `${name}.md`);
    try {
      text = fs.readFileSync(file, "utf8").trimEnd();
    } catch {
      throw new Error(`Prompt template ${name} not found at ${file}`);
    }
    cache.set(name, text);
  }
  return text;
}

export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

export function renderPrompt(name: string, vars: Record<string, string>): string {
  const template = loadPrompt(name);
  const wanted = placeholders(template);
  const missing = wanted.filter((p) => vars[p] === undefined);
  const unused = Object.keys(vars).filter((k) => !wanted.includes(k));
  if (missing.length || unused.length) {
    throw new Error(
      `Prompt ${name}: ${missing.length ? `no value for ${missing.join(", ")}` : ""}${missing.length && unused.length ? "; " : ""}${unused.length ? `not used: ${unused.join(", ")}` : ""}`,
    );
  }
  // One pass over the template: a value that itself contains "{{x}}" is left as it is.
  return template.replace(PLACEHOLDER, (_, key: string) => vars[key]!);
}

/** Hash of the named templates' contents, stored with each debate to tie results to exact prompts. */
export function promptsHash(names: readonly string[]): string {
  const h = createHash("sha256");
  for (const name of [...names].sort()) h.update(`${name}\0${loadPrompt(name)}\0`);
  return h.digest("hex").slice(0, 16);
}
