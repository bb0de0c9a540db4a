/**
 * The field the four-agent variant's judge infers in its first ("domain") turn; the expert speaks
 * for it and the page names the expert by it. Client-safe: the run (protocol.ts) and the page
 * (definition.ts's view hook) read the answer alike.
 */
export function parseDomain(text: string): string {
  const m = /DOMAIN\s*[:：]\s*\**\s*([A-Za-z][A-Za-z -]{0,40})/i.exec(text);
  const word = (m?.[1] ?? text)
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .join(" ")
    .replace(/[^A-Za-z -]/g, "");
  // A domain the model would not name still needs an expert: "general" is honest about it.
  return word ? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase() : "General";
}

/** The inferred field once its turn is finished; null before (and for variants without one). */
export function domainOf(turns: ReadonlyArray<{ phase: string; status?: string; content: string }>): string | null {
  const t = turns.find((x) => x.phase === "domain" && (x.status ?? "completed") === "completed");
  return t ? parseDomain(t.content) : null;
}
