/**
 * What may stand in a prompt. Every string is untrusted by default: a claim, a document, a fetched
 * page, a tool's result, a model's answer, anything parsed out of one. A prompt accepts only
 * `PromptText`, and the only ways to make it are:
 *
 *   - `fence.wrap(kind, untrusted)`: untrusted text inside the debate's fence (a `Fenced` block);
 *   - `trusted("literal")` or a rendered template: text the program wrote (a `Trusted` string);
 *   - the `prompt` template tag and `joinPrompt`, which compose the two: their literal parts are
 *     program-written, and every value put in must itself be `PromptText` or a number.
 *
 * So putting a plain string (which is what every untrusted value is) into a prompt is a type error,
 * not a review comment. A system prompt is stricter still (`SystemText`): program-written text only,
 * with no fenced material at all, so nothing a model or a document said can reach it.
 */

declare const PROMPT: unique symbol;
declare const TRUSTED: unique symbol;
declare const FENCED: unique symbol;

/** Untrusted text: every string that did not come from the program itself. A name for reading, not a brand. */
export type Untrusted = string;

/** Text that may stand in a user turn: program-written, fenced, or a composition of both. */
export type PromptText = string & { readonly [PROMPT]: true };
/** Program-written text (no untrusted part): a literal, a number, a rendered system template. */
export type Trusted = PromptText & { readonly [TRUSTED]: true };
/** Untrusted text inside the debate's fence (`fence.wrap`). */
export type Fenced = PromptText & { readonly [FENCED]: true };
/** A system prompt: program-written only. */
export type SystemText = Trusted;

/** A literal the program wrote. Only literal (or literal-union) types are accepted: `trusted(someString)` does not compile. */
export function trusted<const T extends string>(text: string extends T ? never : T): Trusted {
  return text as unknown as Trusted;
}

/** A number written into a prompt (a round, a count). */
export function trustedNumber(n: number): Trusted {
  return String(n) as Trusted;
}

/** The fence module's way in: only `fence.wrap` makes fenced text. */
export function asFenced(wrapped: string): Fenced {
  return wrapped as Fenced;
}

/** For the prompt renderer, whose output is a template (program-written) with `PromptText` values in it. */
export function asRendered(text: string): PromptText {
  return text as PromptText;
}

/** For the system-prompt renderer: a template whose every value is `Trusted`. */
export function asTrusted(text: string): Trusted {
  return text as Trusted;
}

type Part = PromptText | number;

/** Composes prompt text: the literal parts are program-written, every value must be `PromptText` or a number. */
export function prompt(strings: TemplateStringsArray, ...values: Part[]): PromptText {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += String(v) + (strings[i + 1] ?? "");
  });
  return out as PromptText;
}

/** Like `prompt`, for text that is program-written throughout (every value `Trusted` or a number). */
export function trustedText(strings: TemplateStringsArray, ...values: Array<Trusted | number>): Trusted {
  return prompt(strings, ...values) as Trusted;
}

/** Joins prompt parts with a program-written separator. */
export function joinPrompt<const S extends string>(
  parts: readonly PromptText[],
  separator: string extends S ? never : S,
): PromptText {
  return parts.join(separator) as PromptText;
}

/** `parts` joined, or `empty` when there are none. */
export function joinOr<const S extends string>(
  parts: readonly PromptText[],
  separator: string extends S ? never : S,
  empty: PromptText,
): PromptText {
  return parts.length ? joinPrompt(parts, separator) : empty;
}

/**
 * Text the program computed from its own data, not from anything a user, a document, a tool or a
 * model wrote: a number formatted, a role name from the protocol's configuration, a provider's
 * label from the server's settings. Greppable on purpose; the untrusted-text test
 * (tests/debate/untrusted-prompts.test.ts) fails if any of these turns out to carry untrusted text.
 */
export function programWritten(text: string): Trusted {
  return text as Trusted;
}
