import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";

/** Plain names for presets that are ablations; a dataset preset's own name reads well enough. */
const PRESET_TITLES: Record<string, string> = {
  "no-switch": "without the role switch",
  "single-judge": "one judge instead of three",
  "no-prag": "without progressive retrieval",
  "no-reflection": "without self-reflection",
  "standard-mad": "standard debate baseline",
};

/** A protocol's short name: "PROClaim", not the form's long description. */
export function protocolShortTitle(protocol: string): string {
  return PROTOCOL_NAMES.includes(protocol) ? getProtocol(protocol).title.split(" (")[0]! : protocol;
}

/** How a method is named on the comparison page, the list and the exports, e.g. "PROClaim (full method)". */
export function methodTitle(protocol: string, preset: string | null): string {
  const short = protocolShortTitle(protocol);
  if (!preset) return `${short} (${protocol === "proclaim" ? "full method" : "default settings"})`;
  return `${short} (${PRESET_TITLES[preset] ?? preset})`;
}
