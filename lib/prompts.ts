import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { asRendered, asTrusted, type PromptText, type SystemText, type Trusted } from "./prompts/text";

/**
 * Prompts are files with `{{name}}` placeholders: a method's own prompts sit in its package,
 * `lib/debate/<method>/prompts/<template>.md`, named `<method>/<template>`; the engine's shared ones
 * (prompts/engine, prompts/checkworthy) in prompts/. The name stays `<method>/<template>` wherever
 * the file sits, so `promptsHash` of a debate started before the move is unchanged. Rendering is strict both ways: a
 * placeholder without a value and a value without a placeholder are both errors, so a renamed
 * variable can never silently send a model a prompt with a hole in it.
 *
 * Every placeholder is fenced (it may carry untrusted text, which then stands only inside a fence)
 * unless the template's first line declares it trusted (program-written: a round number, a side,
 * a label list), as in `<!-- trusted: round, side -->`. Values are `PromptText`
 * (lib/prompts/text.ts), so an unfenced untrusted string does not compile; a trusted placeholder
 * that is handed fenced text is refused when rendering. System templates (`system-*`) take trusted
 * values only and are rendered with `renderSystem`.
 */

const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;
const DECLARATION = /^<!--\s*trusted:\s*([a-z0-9_,\s]*?)\s*-->\n/;
/** Any fence marker (lib/prompts/fence.ts): a trusted value never holds one. */
const FENCE_MARKER = /<<\/?(?:claim|evidence|argument|answer|article|tool-result)-[0-9a-f]{8,32}>>/;

function rootDir() {
  return /*turbopackIgnore: true*/ process.env.COUNTERPOINT_ROOT ?? process.cwd();
}

/**
 * The file of template `name`: `<folder>/<template>` is the package's own prompt when
 * lib/debate/<folder>/prompts/<template>.md exists (a path rule, so no method is named here),
 * else prompts/<name>.md.
 */
function templateFile(name: string): string {
  const slash = name.indexOf("/");
  if (slash > 0) {
    const own = path.join(
      /*turbopackIgnore: true*/ rootDir(),
      "lib/debate",
      name.slice(0, slash),
      "prompts",
      `${name.slice(slash + 1)}.md`,
    );
    if (fs.existsSync(own)) return own;
  }
  return path.join(/*turbopackIgnore: true*/ rootDir(), "prompts", `${name}.md`);
}

type Template = { text: string; trusted: ReadonlySet<string> };
const cache = new Map<string, Template>();

function loadTemplate(name: string): Template {
  let t = cache.get(name);
  if (t === undefined) {
    const file = templateFile(name);
    let raw: string;
    try {
      raw = fs.readFileSync(file, "utf8").trimEnd();
    } catch {
      throw new Error(`Prompt template ${name} not found at ${file}`);
    }
    const m = DECLARATION.exec(raw);
    const trusted = new Set(
      (m?.[1] ?? "")
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    );
    const text = m ? raw.slice(m[0].length) : raw;
    const unknown = [...trusted].filter((p) => !placeholders(text).includes(p));
    if (unknown.length)
      throw new Error(`Prompt ${name} declares trusted placeholders it does not have: ${unknown.join(", ")}`);
    t = { text, trusted };
    cache.set(name, t);
  }
  return t;
}

/** A template's text, without its declaration line. */
export function loadPrompt(name: string): string {
  return loadTemplate(name).text;
}

/** A template's placeholders, each fenced (may carry untrusted text) or trusted (program-written). */
export function placeholderKinds(name: string): Record<string, "fenced" | "trusted"> {
  const t = loadTemplate(name);
  return Object.fromEntries(placeholders(t.text).map((p) => [p, t.trusted.has(p) ? "trusted" : "fenced"]));
}

export const isSystemTemplate = (name: string) => /(^|\/)system-[^/]*$/.test(name);

export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** A user-turn template; fenced placeholders take any `PromptText`, trusted ones program-written text only. */
export function renderPrompt(name: string, vars: Record<string, PromptText | number>): PromptText {
  if (isSystemTemplate(name)) throw new Error(`Prompt ${name} is a system prompt: render it with renderSystem`);
  return asRendered(fill(name, vars));
}

/** A system template: every placeholder must be declared trusted, every value program-written. */
export function renderSystem(name: string, vars: Record<string, Trusted | number>): SystemText {
  const kinds = placeholderKinds(name);
  const fenced = Object.keys(kinds).filter((k) => kinds[k] === "fenced");
  if (fenced.length)
    throw new Error(
      `Prompt ${name} is a system prompt, so its placeholders must all be trusted (not ${fenced.join(", ")})`,
    );
  return asTrusted(fill(name, vars));
}

function fill(name: string, vars: Record<string, string | number>): string {
  const { text: template, trusted } = loadTemplate(name);
  const wanted = placeholders(template);
  const missing = wanted.filter((p) => vars[p] === undefined);
  const unused = Object.keys(vars).filter((k) => !wanted.includes(k));
  if (missing.length || unused.length) {
    throw new Error(
      `Prompt ${name}: ${missing.length ? `no value for ${missing.join(", ")}` : ""}${missing.length && unused.length ? "; " : ""}${unused.length ? `not used: ${unused.join(", ")}` : ""}`,
    );
  }
  for (const key of trusted) {
    // The fence rule names the markers to describe them; it is the program's own text (fence.rule).
    if (key !== "fence_rule" && FENCE_MARKER.test(String(vars[key])))
      throw new Error(`Prompt ${name}: ${key} is a trusted placeholder but was given fenced (untrusted) text`);
  }
  // One pass over the template: a value that itself contains "{{x}}" is left as it is.
  return template.replace(PLACEHOLDER, (_, key: string) => String(vars[key]!));
}

/** Hash of the named templates' contents, stored with each debate to tie results to exact prompts. */
export function promptsHash(names: readonly string[]): string {
  const h = createHash("sha256");
  for (const name of [...names].sort()) h.update(`${name}\0${loadPrompt(name)}\0`);
  return h.digest("hex").slice(0, 16);
}
