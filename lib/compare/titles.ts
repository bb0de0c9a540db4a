import { findMethod } from "@/lib/debate/methods";

/** A protocol's short name: "PROClaim", not the form's long description. */
export function protocolShortTitle(protocol: string): string {
  return findMethod(protocol)?.title ?? protocol;
}

/** How a method is named on the comparison page, the list and the exports, e.g. "PROClaim (full method)". */
export function methodTitle(protocol: string, preset: string | null): string {
  const def = findMethod(protocol);
  const short = def?.title ?? protocol;
  if (!preset) return `${short} (${def?.defaultSettingsTitle ?? "default settings"})`;
  return `${short} (${def?.presetTitles?.[preset] ?? preset})`;
}
