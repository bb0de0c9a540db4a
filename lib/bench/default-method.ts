import { DEFAULT_PROTOCOL, getProtocol, type Registered } from "@/lib/debate/protocols";

/*
 * The debates `bench debate`, `bench scale` and the event relay run are the default method's
 * (RADAR, the first in lib/debate/methods.json: variants, early stopping), asked of the registry
 * rather than imported from its folder.
 */

/** A stored configuration of the default method; `variant` is its debate variant. */
export type BenchConfig = Record<string, unknown> & { variant: string };

export function benchProtocol(): Registered {
  return getProtocol(DEFAULT_PROTOCOL);
}

/** The default method's configuration for these settings, defaults filled by its own schema. */
export function benchConfig(settings: Record<string, unknown>): BenchConfig {
  return benchProtocol().parseConfig(settings) as BenchConfig;
}
