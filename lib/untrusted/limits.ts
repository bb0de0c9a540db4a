/*
 * The limits every parser of untrusted input reads under (lib/untrusted/bounded.ts runs the heavy
 * ones in a child process), and the words a person reads when one is passed: which limit, and
 * what to do instead.
 */

export type ParseLimits = {
  /** Characters of text extracted; reading stops as soon as it passes this. */
  maxChars: number;
  /** PDF pages. */
  maxPages: number;
  /** Element (HTML) or array/object (JSON) nesting. */
  maxDepth: number;
  /** Resident memory of the parsing child; it is killed when over. */
  maxMemoryMb: number;
  /** Wall time of the parsing child; it is killed when over. */
  timeoutMs: number;
};

/** Element nesting of HTML; browsers themselves stop nesting at 512. */
export const MAX_HTML_DEPTH = 512;

/** Documents read whole into a corpus (50 MiB files): generous, but a bomb still stops early. */
export const DOCUMENT_LIMITS: ParseLimits = {
  maxChars: 20_000_000,
  maxPages: 5_000,
  maxDepth: MAX_HTML_DEPTH,
  maxMemoryMb: 512,
  timeoutMs: 120_000,
};

/** A text to rank or a page to read: tens of thousands of characters; tight caps. */
export const PAGE_LIMITS: ParseLimits = {
  maxChars: 100_000,
  maxPages: 500,
  maxDepth: MAX_HTML_DEPTH,
  maxMemoryMb: 256,
  timeoutMs: 20_000,
};

/**
 * JSON nesting deeper than this is no data a person or program here writes (feeds and records nest
 * a handful deep, debate exports about ten); thousands of levels overflow the stack of whatever
 * walks the parsed value.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * One record (a CSV row, a JSON line) as characters: a quote left open would otherwise make one
 * "record" of the whole rest of the file, held in memory while it grows.
 */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

export type LimitKind = "chars" | "pages" | "depth" | "memory" | "time";

export class ParseLimitError extends Error {
  constructor(
    readonly limit: LimitKind,
    message: string,
    readonly cost?: { peakRssBytes: number; cpuMs: number },
  ) {
    super(message);
    this.name = "ParseLimitError";
  }
}

const n = (x: number) => x.toLocaleString("en");

/** "what limit, what to do", for a document called `name`. */
export function limitMessage(name: string, limit: LimitKind, limits: ParseLimits, found: number | null): string {
  switch (limit) {
    case "chars":
      return `${name} holds more than ${n(limits.maxChars)} characters of text, the limit; reading stopped there. Save the part you need as its own file, or paste it.`;
    case "pages":
      return `${name} has ${found === null ? "more" : n(found)} pages; the limit is ${n(limits.maxPages)}. Split it and send the part you need.`;
    case "depth":
      return `${name} nests its elements more than ${n(limits.maxDepth)} deep, far past any real document; it was not read. Save it again from the program that made it, or paste its text.`;
    case "memory":
      return `${name} needed more than ${n(limits.maxMemoryMb)} MB of memory to read (a file can expand far past its size, e.g. a PDF's compressed pages), so reading was stopped. Save the part you need as a new file, or paste its text.`;
    case "time":
      return `${name} took more than ${n(Math.round(limits.timeoutMs / 1000))} seconds to read, so reading was stopped. Save the part you need as a new file, or paste its text.`;
  }
}

/**
 * The nesting depth of a JSON text, read without parsing it; stops and answers as soon as it passes
 * `max` (so a line of a million "[" is read only to the 129th). Strings are skipped, escapes
 * included. Returns the depth reached, at most max + 1.
 */
export function jsonDepth(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/**
 * JSON.parse for untrusted text, refusing nesting past `max` before parsing: deep values parse,
 * but then overflow the stack of whatever walks them (validation, serialising) as a 500.
 */
export function parseJsonBounded(text: string, max = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, max) > max)
    throw new ParseLimitError(
      "depth",
      `it nests more than ${max} levels deep, far past any real record, so it was not read; check how the file was made`,
    );
  return JSON.parse(text);
}
