import type { DebateContext, DebateEvidence } from "../types";
import type { ToolMadConfig } from "./config";
import { cosine } from "./gate";

/**
 * v1's consistency score CS_A^r = sim(D_A^r, a_A^r). The paper used a cross-encoder; none runs
 * offline here, so the similarity is the cosine between the answer and its documents joined,
 * under the debate's encoder, and is recorded as `method: "embedding"` (consistency:embedding).
 */
export type Consistency = { agent: string; cs: number | null; method: "cross-encoder" | "embedding" };

export async function consistencyOf(
  ctx: DebateContext<ToolMadConfig>,
  round: number,
  agent: string,
  answer: string,
  documents: readonly DebateEvidence[],
): Promise<Consistency> {
  let cs: number | null = null;
  // An agent without documents (vanilla) has nothing to be consistent with.
  if (documents.length) {
    const { vectors } = await ctx.embed({
      round,
      phase: `consistency-embed:${agent}`,
      role: "scorer",
      texts: [answer, documents.map((d) => d.text).join("\n")],
      metadata: { toolMad: { step: "consistency-embed", agent } },
    });
    cs = cosine(vectors[0]!, vectors[1]!);
  }
  const rec = await ctx.record({
    round,
    phase: "consistency",
    role: agent,
    compute: (): Consistency => ({ agent, cs, method: "embedding" }),
    content: (v) =>
      `Consistency of ${agent}'s answer with its documents: ${v.cs === null ? "none (no documents)" : v.cs.toFixed(3)} (consistency:embedding)`,
    metadata: { toolMad: { step: "consistency", agent } },
  });
  return rec.value;
}
