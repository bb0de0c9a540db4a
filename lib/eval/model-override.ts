import type { ResolverFactory } from "./executor";

/**
 * The one way to give workers scripted models instead of the registry's: only
 * scripts/scripted-worker.mjs (tests and `bench eval`) calls `installResolverFactory`, before the
 * CLI loads. Nothing reads an environment variable for it, so a deployed worker cannot be switched
 * to a scripted model by configuration.
 */
const key = Symbol.for("counterpoint.eval.resolver-factory");
type G = typeof globalThis & { [key]?: ResolverFactory };

export function installResolverFactory(f: ResolverFactory) {
  (globalThis as G)[key] = f;
}

export function installedResolverFactory(): ResolverFactory | undefined {
  return (globalThis as G)[key];
}
