import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";

/**
 * The manual is the README's front door plus docs/, ARCHITECTURE.md and each method's README. What it
 * names must exist: a link that leads nowhere, a command the CLI does not have or a setting the code
 * never reads sends a newcomer down a wrong path, and nothing else would notice when code moves.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

function* walk(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      yield* walk(p);
    } else yield p;
  }
}

/** Every page of the manual: README.md, ARCHITECTURE.md, docs/*.md and the READMEs under lib/. */
const DOCS = [
  "README.md",
  "ARCHITECTURE.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  ...[...walk(path.join(ROOT, "lib"))]
    .filter((f) => path.basename(f) === "README.md")
    .map((f) => path.relative(ROOT, f)),
];

/** The text outside fenced code blocks, with the line number of each line. */
function proseLines(text: string): Array<{ line: string; n: number }> {
  const out: Array<{ line: string; n: number }> = [];
  let fence = false;
  text.split("\n").forEach((line, i) => {
    if (line.startsWith("```")) fence = !fence;
    else if (!fence) out.push({ line, n: i + 1 });
  });
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, "")
    .replace(/ /g, "-");
}

function anchorsIn(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const { line } of proseLines(fs.readFileSync(file, "utf8"))) {
    const m = /^#+ (.*)$/.exec(line);
    if (m) anchors.add(anchorOf(m[1]!));
  }
  return anchors;
}

/** Relative links `[text](target#anchor)` on prose lines (code spans inside the text are fine). */
export function linksIn(text: string): Array<{ target: string; anchor: string; n: number }> {
  const out: Array<{ target: string; anchor: string; n: number }> = [];
  for (const { line, n } of proseLines(text)) {
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const url = m[1]!;
      if (/^(https?:|mailto:)/.test(url)) continue;
      const [target = "", anchor = ""] = url.split("#");
      out.push({ target, anchor, n });
    }
  }
  return out;
}

/** Names of settings: upper-case words with an underscore, written in code spans or blocks. */
export function settingsIn(text: string): string[] {
  const names = new Set<string>();
  for (const span of text.matchAll(/`([^`\n]+)`/g))
    for (const m of span[1]!.matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g)) names.add(m[1]!);
  return [...names];
}

/** `counterpoint <command> [<subcommand>]` as written in the manual (npx or not). */
export function commandsIn(text: string): string[][] {
  const out: string[][] = [];
  for (const m of text.matchAll(/\bcounterpoint((?: [a-z][a-z0-9-]*)+)/g)) out.push(m[1]!.trim().split(" "));
  return out;
}

/** The CLI as users get it: the same program the `counterpoint` command parses. */
async function cliProgram(): Promise<Command> {
  const { buildProgram } = await import("@/lib/cli/program");
  return buildProgram();
}

/** Which words of `words` name no command: [] when the path exists. */
function unknownCommand(program: Command, words: string[]): string | null {
  let at: Command = program;
  for (const [i, word] of words.entries()) {
    const sub = at.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      at = sub;
      continue;
    }
    // The first word must be a command; later words may be the command's own arguments.
    if (i === 0 || (at.commands.length > 0 && at.registeredArguments.length === 0)) return word;
    return null;
  }
  return null;
}

/** Where the code reads settings: the configuration, the example file, scripts and test rigs. */
function codeText(): string {
  const parts: string[] = [fs.readFileSync(path.join(ROOT, ".env.example"), "utf8")];
  for (const d of ["lib", "db", "app", "scripts", "bin", "e2e", "tests"])
    for (const f of walk(path.join(ROOT, d)))
      if (/\.(ts|tsx|mjs|js|sh)$/.test(f) && !f.endsWith("docs.test.ts")) parts.push(fs.readFileSync(f, "utf8"));
  for (const f of ["playwright.config.ts", "vitest.config.ts", "next.config.ts", "instrumentation.ts", "proxy.ts"])
    if (fs.existsSync(path.join(ROOT, f))) parts.push(fs.readFileSync(path.join(ROOT, f), "utf8"));
  return parts.join("\n");
}

describe("the manual", () => {
  it("has a short front door that leads to every page of the manual", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(220);
    const linked = new Set(linksIn(readme).map((l) => path.normalize(l.target)));
    // One click further counts too: a method package's prompt notes (lib/debate/<m>/prompts/README.md)
    // are reached from its README, which the front door links.
    for (const page of [...linked].filter((d) => DOCS.includes(d)))
      for (const l of linksIn(fs.readFileSync(path.join(ROOT, page), "utf8")))
        if (l.target) linked.add(path.normalize(path.join(path.dirname(page), l.target)));
    const unlinked = DOCS.filter((d) => d !== "README.md" && !linked.has(path.normalize(d)));
    expect(unlinked).toEqual([]);
  });

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      const file = path.join(ROOT, doc);
      for (const { target, anchor, n } of linksIn(fs.readFileSync(file, "utf8"))) {
        const to = target ? path.resolve(path.dirname(file), target) : file;
        if (!fs.existsSync(to)) broken.push(`${doc}:${n}: ${target} does not exist`);
        else if (anchor && to.endsWith(".md") && !anchorsIn(to).has(anchor))
          broken.push(`${doc}:${n}: ${target || doc} has no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("names only settings the code reads", () => {
    const code = codeText();
    const missing: string[] = [];
    for (const doc of DOCS)
      for (const name of settingsIn(fs.readFileSync(path.join(ROOT, doc), "utf8")))
        if (!code.includes(name)) missing.push(`${doc}: ${name}`);
    expect(missing).toEqual([]);
  });

  it("names only commands the CLI has", async () => {
    const program = await cliProgram();
    expect(program.commands.length).toBeGreaterThan(10);
    const unknown: string[] = [];
    for (const doc of DOCS)
      for (const words of commandsIn(fs.readFileSync(path.join(ROOT, doc), "utf8"))) {
        const bad = unknownCommand(program, words);
        if (bad) unknown.push(`${doc}: counterpoint ${words.join(" ")} (no "${bad}")`);
      }
    expect(unknown).toEqual([]);
  });

  it("the checks catch what they are for", async () => {
    expect(linksIn("see [the API](docs/api.md#tokens) and [site](https://example.org)")).toEqual([
      { target: "docs/api.md", anchor: "tokens", n: 1 },
    ]);
    expect(linksIn("```\n[not a link](nowhere.md)\n```")).toEqual([]);
    expect(anchorOf("Deployment: many machines")).toBe("deployment-many-machines");
    expect(settingsIn("set `DEFAULT_MODEL=openai:x` and `NOT_A_SETTING_XYZ`; ALSO_NOT")).toEqual([
      "DEFAULT_MODEL",
      "NOT_A_SETTING_XYZ",
    ]);
    expect(codeText().includes("NOT_A_SETTING_XYZ")).toBe(false);
    const program = await cliProgram();
    expect(unknownCommand(program, ["dataset", "download"])).toBeNull();
    expect(unknownCommand(program, ["no-such-command"])).toBe("no-such-command");
    expect(unknownCommand(program, ["dataset", "no-such-sub"])).toBe("no-such-sub");
  });
});
