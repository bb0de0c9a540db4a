import { proclaimStep } from "./steps";
import { renderPrompt } from "@/lib/prompts";
import type { Fence } from "@/lib/prompts/fence";
import type { PromptText, SystemText } from "@/lib/prompts/text";
import type { DebateContext, DebateEvidence } from "../types";
import { admissibilitySchema } from "./answers";
import { judgesOf, type ProclaimConfig } from "./config";
import { admissibility } from "./formulas";

/**
 * Evidence a person added is a motion (issue 39): at the start of each trial round the arbiter
 * weighs it with the pre-trial's admissibility step (same prompt, w = relevance × credibility, the
 * same bands). Admitted, it joins the evidence the court reads (this trial's pool, and the switched
 * trial's from its start); disputed, discarded or unread, the court refuses it with its reason and no
 * later prompt quotes it. It is weighed so also under presets that screen no other evidence
 * (standard MAD): a person's passage is never read unweighed.
 */

export type MotionCourt = {
  ctx: DebateContext<ProclaimConfig>;
  config: ProclaimConfig;
  fence: Fence;
  claim: PromptText;
  base: { maxOutputTokens: number };
  guard: () => void;
  analyst: () => SystemText;
  premiseList: PromptText;
};

/** Hears the motions waiting at round `t` of a trial (phase prefix `px`); returns the passages admitted. */
export async function hearMotions(court: MotionCourt, t: number, px: string): Promise<DebateEvidence[]> {
  const { ctx, config, fence, claim, base, guard, analyst } = court;
  const point = `${px}motions ${t}`;
  // The arbiter weighs evidence in the full method; a preset without one (standard MAD) has its first judge do it.
  const role = config.mode === "full" ? "arbiter" : judgesOf(config)[0]!;
  const motions = await ctx.motions(point);
  const admitted: DebateEvidence[] = [];
  for (const m of motions) {
    guard();
    const ans = await ctx.speakJson(
      {
        ...base,
        round: t,
        phase: `${px}motion`,
        role,
        kind: "analysis",
        system: analyst(),
        prompt: renderPrompt("proclaim/admissibility", {
          claim,
          premises: court.premiseList,
          passage: fence.wrap("evidence", `(${m.title}) ${m.text}`),
        }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 200),
        metadata: proclaimStep("motion", { intervention: m.id, title: m.title }),
      },
      admissibilitySchema,
    );
    const weighed = ans.value ? admissibility(ans.value.relevance, ans.value.credibility, config) : null;
    if (ans.value && weighed?.status === "admitted") {
      const { relevance: r, credibility: c, reason } = ans.value;
      const row = await ctx.ruleOnMotion(m, {
        point,
        seq: ans.seq,
        admitted: true,
        metadata: { r, c, w: weighed.w, status: "admitted", reason, debate: "motion" },
      });
      if (row) admitted.push(row);
    } else {
      const why = ans.value
        ? `${weighed!.status} (w ${weighed!.w} of ${config.admitW} needed)${ans.value.reason ? `: ${ans.value.reason}` : ""}`
        : "the court's weighing could not be read";
      await ctx.ruleOnMotion(m, { point, seq: ans.seq, admitted: false, reason: `The court refused it: ${why}` });
    }
  }
  return admitted;
}
