import type { MethodInterventions } from "./interventions/contract";
import type { z } from "zod";
import type { ProductLabel } from "./types";
import { plainWords } from "./plain-words";

/**
 * What a method IS, for every surface that shows, exports or reports it: client-safe (no prompt
 * files, no database), one per method in lib/debate/<method>/definition.ts, listed once in
 * lib/debate/methods.ts. The server-side run (lib/debate/<method>/protocol.ts) stays beside it and
 * is listed in lib/debate/protocols.ts. Nothing outside a method's folder and the registries asks
 * "is this RADAR?": it asks the definition.
 */

export type InputKind = "claim" | "article";

/** `seed`: the file the product was built from; `year` only when the paper gives it. */
/**
 * A paper the method was built from, cited as a reader can find it: `venue` says where it appeared
 * (an arXiv number, or that it is a submission under review), `link` is given only where the paper
 * has a public address; `year` only when the paper gives it.
 */
export type Paper = { title: string; authors: string; year?: number; venue: string; link?: string; note?: string };

/** A method in plain words for the /methods page (lib/debate/<method>/about.ts). */
export type MethodAbout = {
  name: string;
  /** One sentence: what it is good at. */
  bestFor: string;
  /** What a fact-checker gives it. */
  input: string;
  /** Who does what, in order. */
  steps: string[];
  /** When it ends, in words. */
  stops: string;
  /** The answers it can give, and how the product reads them. */
  answers: string;
  /** What to keep in mind before trusting a result. */
  caveats: string[];
  papers: Paper[];
};

/** A stored step as the surfaces read it (a page's turn, an export's turn, a live turn). */
export type StepTurn = {
  role: string;
  kind: string;
  phase: string;
  content: string;
  status?: string;
  metadata?: Record<string, unknown> | null;
};

/**
 * Method-specific fields of a debate's view (lib/debate/view.ts `extras`), filled by a definition's
 * `view.extras` from its own steps (RADAR: `domain`, the field its expert speaks for). Plain JSON;
 * only the method reads them, each field null until known.
 */
export type MethodViewExtras = Readonly<Record<string, unknown>>;

/** A step for people: who did it and what they said or found, in words; no JSON, no answer markers. */
export type PlainStep = { speaker: string; text: string };

export type MethodLabels = {
  /** Every label the method stores (all its label schemes), as stored. */
  labels: readonly string[];
  /** How each reads on the product's scale; a label missing here has no place on it (not enough info, inconclusive). */
  toProduct: Record<string, ProductLabel>;
  /** The words shown for a label, where they differ from the label itself. */
  words?: Record<string, string>;
  /** A label scheme's name for people, by the `labelScheme` its verdicts carry ("fever" → "FEVER"). */
  schemes?: Record<string, string>;
};

/** A choice an evaluation run of the method offers on /eval/new, read back by its `configFromForm` under `name`. */
export type EvalOption = {
  name: string;
  label: string;
  defaultValue: string;
  choices: ReadonlyArray<{ value: string; label: string }>;
};

/**
 * A role's colour on the page, by what it does rather than who it is: a few speaker colours, the
 * deciding voice (`judge`) and a side step (`aside`). Always shown with the role named in words.
 */
export const ROLE_TONES = ["blue", "emerald", "rose", "amber", "violet", "judge", "aside"] as const;
export type RoleTone = (typeof ROLE_TONES)[number];

export type CostWords = {
  /** One honest sentence: the expected and the worst case, each said as such. */
  summary: string;
};

export type MethodDefinition = {
  /** Stored in `debates.protocol`; the key every registry uses. */
  name: string;
  /** The /methods page's text; without it the page describes the method from this definition. */
  about?: MethodAbout;
  /** Its short name for people ("RADAR"). */
  title: string;
  /** One line: what it does. */
  description: string;
  /** What a fact-checker gives it: a one-sentence claim or a news article. */
  input: InputKind;
  labels: MethodLabels;
  /** True: it finds its own evidence with tools while it runs, so a corpus is optional. */
  bringsOwnEvidence: boolean;
  /** Where a person's interventions enter this method (lib/debate/interventions); absent: it takes none. */
  interventions?: MethodInterventions;
  /** The debate variants it offers (stored in `debates.variant`; RADAR's expertise, position ...), the first its default. */
  variants?: readonly string[];
  /** How the settings a debate starts with (no preset chosen) are called on forms and titles. */
  defaultSettingsTitle: string;
  /**
   * The form's flat fields as this method's configuration: a preset first, then what the user
   * changed on top of it. Numbers that do not parse are passed on as typed, so validation names the field.
   */
  configFromForm(fields: Record<string, string>): Record<string, unknown>;
  /** The presets the form offers, in words. */
  formPresets?: ReadonlyArray<{ name: string; title: string; labels?: string }>;
  /** May run with no corpus at all (its own web search, or nothing found, said on the page). */
  corpusOptional?: boolean;
  /** Presets in words where the preset's own name does not read well (ablations). */
  presetTitles?: Record<string, string>;
  /** Role display names; `roleName` handles roles that carry a number or depend on the debate. */
  roles: Record<string, string>;
  roleName?(role: string, ctx: MethodViewExtras): string | null;
  /** Each role's colour on the page (turn cards); a role left out is drawn plain. */
  roleTones?: Readonly<Record<string, RoleTone>>;
  /**
   * Zod schemas of the metadata each step writes, by step name (`metadata[metadataKey].step`).
   * The protocol writes through them and every reader parses with them (safeParse).
   */
  metadataKey?: string;
  steps: Record<string, z.ZodType>;
  /** A step in plain words; null: an internal step people do not need (sentence vectors). Default: `defaultPlainStep`. */
  plainStep?(turn: StepTurn, ctx: MethodViewExtras): PlainStep | null;
  /**
   * The reason people read, for a method whose verdict carries none (ZoFia's judge answers with a
   * label only): taken from its turns, with `note` saying where it came from. Default: the
   * verdict's own reason.
   */
  reasonFromTurns?(verdict: { label: string }, turns: readonly StepTurn[]): { text: string; note: string } | null;
  /** A cost sentence for a finished or planned debate, from an estimate (calls at the expected and worst case). */
  costWords?(estimate: { llmCalls: number; expectedCalls?: number; note?: string }): CostWords;
  /** Eval: the choices /eval/new offers for a run of this method beside its variant (RADAR: early stopping); none: the form shows none. */
  evalOptions?: readonly EvalOption[];
  /** Eval: why a dataset's gold labels cannot be read in this method's labels, and what to do instead. */
  datasetAdvice?: string;
  /** Eval matrix: how this method reads a claim dataset when it differs from the paper (shown beside the run). */
  matrixNote?: string;
  /** Bench: what the paper or spec says a debate costs under a preset, to print beside the measured numbers. */
  paperCost?(preset: string): string | null;
  /** Bench: the paper's tokens per claim under a preset, where the paper gives them. */
  paperTokens?(preset: string): number | null;
  /**
   * An evaluation run's settings in words for its header (RADAR: "early stopping on · 1 rebuttal"),
   * from the run's stored configuration (`config[<method>]`); null: nothing to add.
   */
  runSettingsWords?(methodConfig: Record<string, unknown> | undefined): string | null;
  /**
   * What the debate page reads from the method's own steps beyond the transcript, recomputed from
   * the stored steps for a snapshot and from each finished step while it runs (RADAR: the field its
   * judge inferred, which names the domain expert). Generic code never looks for a method's phases.
   * Its notes (ctx.note) reach the page as the view's `notes`, which its own views read.
   */
  view?: {
    extras?(turns: ReadonlyArray<StepTurn>): MethodViewExtras;
  };
  /** The terminal's line for a live method note (the `debate` command); null: not printed. */
  noteWords?(name: string, value: unknown): string | null;
  /** Whether this method's stored reports speak the product scale directly (its labels are TRUE / HALF-TRUE / FALSE). */
  speaksProductScale?: boolean;
};

/** A form number: undefined when empty, the typed text when it does not parse (validation then names the field). */
export function formNumber(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : (v as unknown as number);
}

/** A role's name in words, from the definition's table, else the role id made readable. */
export function roleDisplayName(def: MethodDefinition | undefined, role: string, ctx: MethodViewExtras = {}): string {
  const special = def?.roleName?.(role, ctx);
  if (special) return special;
  const named = def?.roles[role];
  if (named) return named;
  return role
    .replace(/[-_:]+/g, " ")
    .trim()
    .replace(/^./, (c) => c.toUpperCase());
}

/** The metadata a step wrote under the method's key, with its step name; null when it has none. */
export function stepMetadata(
  def: MethodDefinition | undefined,
  metadata: Record<string, unknown> | null | undefined,
): { step: string; value: Record<string, unknown> } | null {
  if (!def?.metadataKey || !metadata) return null;
  const v = metadata[def.metadataKey];
  if (!v || typeof v !== "object") return null;
  const step = (v as { step?: unknown }).step;
  return typeof step === "string" ? { step, value: v as Record<string, unknown> } : null;
}

/**
 * A step's metadata read with the method's schema for that step: `ok` with the value, or `unread`
 * (an old row, or a step the method no longer writes) so the page can say "could not read this step".
 */
export function readStep<T = Record<string, unknown>>(
  def: MethodDefinition | undefined,
  metadata: Record<string, unknown> | null | undefined,
): { step: string; ok: true; value: T } | { step: string | null; ok: false } {
  const m = stepMetadata(def, metadata);
  if (!m) return { step: null, ok: false };
  const schema = def!.steps[m.step];
  if (!schema) return { step: m.step, ok: false };
  const parsed = schema.safeParse(m.value);
  return parsed.success ? { step: m.step, ok: true, value: parsed.data as T } : { step: m.step, ok: false };
}

/** Sentence-vector steps: bookkeeping, not something a reader needs. */
export function isInternalStep(turn: StepTurn): boolean {
  return (
    turn.kind === "analysis" &&
    !!turn.metadata &&
    typeof turn.metadata === "object" &&
    "embedder" in turn.metadata &&
    "texts" in turn.metadata
  );
}

/** Every method's fallback: the speaker by the definition's names, the text with JSON and markers turned into words. */
export function defaultPlainStep(
  def: MethodDefinition | undefined,
  turn: StepTurn,
  ctx: MethodViewExtras = {},
): PlainStep | null {
  if (isInternalStep(turn)) return null;
  const who = roleDisplayName(def, turn.role, ctx);
  return { speaker: turn.kind === "tool" ? `${who} (search)` : who, text: plainWords(turn.content) };
}

/** A step in plain words through its method's definition; a finished step its schema cannot read says so. */
export function plainStep(
  def: MethodDefinition | undefined,
  turn: StepTurn,
  ctx: MethodViewExtras = {},
): PlainStep | null {
  const plain = def?.plainStep ? def.plainStep(turn, ctx) : defaultPlainStep(def, turn, ctx);
  if (!plain || !unreadStep(def, turn)) return plain;
  return { ...plain, text: `${plain.text}${plain.text ? " " : ""}(${UNREAD_STEP_WORDS})` };
}

export const UNREAD_STEP_WORDS = "Could not read this step's details: it was stored by an older version.";

/** A finished step that carries the method's metadata but does not parse with its schema (an old row). */
export function unreadStep(def: MethodDefinition | undefined, turn: StepTurn): boolean {
  if (!def?.metadataKey || (turn.status ?? "completed") !== "completed") return false;
  if (!turn.metadata || !(def.metadataKey in turn.metadata)) return false;
  return !readStep(def, turn.metadata).ok;
}
