import type { MethodAbout } from "@/lib/debate/definition";
import { methodDefinitions } from "@/lib/debate/methods";

/**
 * The methods in plain words, for the /methods page: what the agents do, when they stop, what to
 * give them. Each method's folder writes its own (lib/debate/<method>/about.ts); the numbers
 * (cost, presets, the papers' results) are read from the protocols and presets themselves
 * (lib/methods/facts.ts), so this page cannot drift from what the product runs.
 */
export type { Paper } from "@/lib/debate/definition";

export type MethodText = MethodAbout & { protocol: string };

/** Every registered method; one without a text of its own is described by its definition. */
export function methodTexts(): MethodText[] {
  return methodDefinitions().map((d) => ({
    protocol: d.name,
    ...(d.about ?? {
      name: d.title,
      bestFor: d.description,
      input: d.input === "article" ? "A news article." : "A claim.",
      steps: [d.description],
      stops: "As the method decides.",
      answers: d.labels.labels
        .map((l) => (d.labels.toProduct[l] ? `${l} (read as ${d.labels.toProduct[l]})` : l))
        .join(", "),
      caveats: [],
      papers: [],
    }),
  }));
}
