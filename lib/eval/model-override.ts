import { peekProcessGlobal, setProcessGlobal } from "@/lib/process/globals";
import type { ResolverFactory } from "./executor";

/**
 * The one way to give workers scripted models instead of the registry's: only
 * scripts/scripted-worker.mjs (tests and `bench eval`) calls `installResolverFactory`, before the
 * CLI loads. Nothing reads an environment variable for it, so a deployed worker cannot be switched
 * to a scripted model by configuration.
 */
export function installResolverFactory(f: ResolverFactory) {
  setProcessGlobal("eval.resolver-factory", f);
}

export function installedResolverFactory(): ResolverFactory | undefined {
  return peekProcessGlobal("eval.resolver-factory");
}
