import { METHOD_PROTOCOLS } from "./registry/server.generated";
import type { ProductLabel, Protocol } from "./types";

/**
 * Every debate protocol the product knows, and the one place a request (the form, the CLI's
 * `debate --protocol`, `eval --protocol`) turns a protocol name into a configuration, roles and
 * models. A protocol module owns its request: configuration schema (with defaults), label scheme
 * mapped to TRUE / HALF-TRUE / FALSE, roles with model aliases and temperatures, presets, and
 * input limits.
 *
 * What a protocol may ask of the runner (lib/debate/runner.ts), through its context, each step
 * recorded once under a stable sequence number and replayed on resume instead of run again:
 * - `speak` / `speakScored`: a model turn, streamed, retried, stored with `metadata` and, for an
 *   agent that keeps a chat, the `messages` so far;
 * - `speakJson(spec, schema)`: a turn whose answer must be JSON: parsed with zod, repaired once,
 *   else stored as unparsed (the protocol decides what an unparsed answer means);
 * - `record({ compute })`: a step that calls no model (gate, score, vote, consensus): a turn of
 *   kind `analysis`, zero tokens, its value in metadata, never recomputed on resume;
 * - `tool({ tool, request })`: a search through the tool frozen in `config.tools[tool]` at
 *   creation: a turn of kind `tool`, never queried again on resume, a failure fails the turn; its
 *   results join the evidence pool (origin `tool:<provider>`, the turn that added them, who may
 *   read them);
 * - `embed({ texts })`: sentence vectors from the encoder frozen at creation, recorded once;
 * - `parallel(branches)`: several chains at once (two agents in a round, a judge panel), streamed
 *   side by side; every step inside a branch needs a unique (round, phase, role), because a resumed
 *   debate finds its finished steps by that identity, not by the order they finished in;
 * - `evidenceFor(role)` / `addEvidence`: the pool as a role may read it now, and growing it;
 *   citations are checked against what the speaker could read when it spoke;
 * - `budget()`: tokens and calls spent against `budgetTokens` / `maxCalls`; once spent, only a
 *   turn marked `wrapUp` (the judge) may run, so the protocol must go to its verdict.
 * A protocol returns its verdict in its own labels (with `decidedBy`, `stopReason`, `details` and
 * a panel's ballots); reports read it on the product's scale through its label scheme.
 * A protocol never touches the database or the network itself.
 */
export type Registered = Protocol<unknown> & { parseConfig(raw: unknown): unknown };

function register<C>(p: Protocol<C>): Registered {
  return { ...(p as unknown as Protocol<unknown>), parseConfig: (raw) => p.configSchema.parse(raw ?? {}) };
}

// Every method's protocol, from the one list (lib/debate/methods.json, through its generated server barrel).
const PROTOCOLS: Record<string, Registered> = Object.fromEntries(
  METHOD_PROTOCOLS.map((p) => [p.name, register(p as Protocol<unknown>)]),
);

/** The first method in lib/debate/methods.json. */
export const DEFAULT_PROTOCOL = METHOD_PROTOCOLS[0]!.name;
export const PROTOCOL_NAMES = Object.keys(PROTOCOLS) as [string, ...string[]];

export function getProtocol(name: string): Registered {
  const p = PROTOCOLS[name];
  if (!p) throw new Error(`Unknown debate protocol "${name}"; choose one of: ${PROTOCOL_NAMES.join(", ")}.`);
  return p;
}

/**
 * The protocols that offer an optional capability (lib/debate/capabilities.ts: `evalScores`,
 * `readEntities`), in the list's order: evaluation and the benchmarks ask for what they need
 * instead of naming a method.
 */
export function protocolsWith(capability: "evalScores" | "readEntities"): Registered[] {
  return PROTOCOL_NAMES.map((n) => PROTOCOLS[n]!).filter((p) => p[capability] !== undefined);
}

/**
 * The model id a role uses: its own, else the role it is an alias of (RADAR's stop agent speaks
 * with the judge's model), else the judge's, as debates stored before roles were declared expect.
 */
export function modelForRole(
  protocol: Registered,
  config: unknown,
  models: Record<string, string>,
  role: string,
): string {
  const alias = protocol.roleSpecs(config).find((r) => r.role === role)?.usesModelOf;
  const id = models[role] ?? (alias ? models[alias] : undefined) ?? models.judge;
  if (!id) throw new Error(`no model configured for role ${role}`);
  return id;
}

/** A stored label on the product's scale; null for a label the protocol does not map (e.g. UNPARSED). */
export function productLabel(protocolName: string, label: string): ProductLabel | null {
  const p = PROTOCOLS[protocolName];
  return p?.labels.toProduct[label] ?? null;
}

/**
 * Adds a protocol at run time: for tests (a protocol defined in the test file) and for protocols
 * loaded as plugins. A name already taken is refused, so RADAR cannot be replaced by accident.
 */
export function registerProtocol<C>(p: Protocol<C>): void {
  if (PROTOCOLS[p.name]) throw new Error(`A debate protocol named "${p.name}" is already registered.`);
  PROTOCOLS[p.name] = register(p);
  PROTOCOL_NAMES.push(p.name);
}

/** The claim limit of the protocol a request names; RADAR's for none. An unknown name is refused later, by createDebate. */
export function claimLimitFor(name: string | undefined): number {
  return (
    PROTOCOLS[name?.trim() || DEFAULT_PROTOCOL]?.limits.claimChars ?? PROTOCOLS[DEFAULT_PROTOCOL]!.limits.claimChars
  );
}
