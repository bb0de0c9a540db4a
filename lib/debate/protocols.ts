import { radarConfigSchema, radarProtocol } from "./radar/protocol";
import type { Protocol } from "./types";

/**
 * Every debate protocol the runner knows. PROClaim, Tool-MAD and ZoFia join as new entries here,
 * each a module with its own configuration schema; the runner does not change.
 */
type Registered = Protocol<unknown> & { parseConfig(raw: unknown): unknown };

const PROTOCOLS: Record<string, Registered> = {
  radar: { ...(radarProtocol as Protocol<unknown>), parseConfig: (raw) => radarConfigSchema.parse(raw ?? {}) },
};

export function getProtocol(name: string): Registered {
  const p = PROTOCOLS[name];
  if (!p) throw new Error(`Unknown debate protocol "${name}"; known: ${Object.keys(PROTOCOLS).join(", ")}`);
  return p;
}

export const PROTOCOL_NAMES = Object.keys(PROTOCOLS);
