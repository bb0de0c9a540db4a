import type { MethodViews } from "@/components/debate/method-views";
import { JudgeScores } from "./judge-scores";
import { TOOL_MAD_SCHEME_CHOICES, ToolMadFields } from "./tool-mad-fields";
import { ToolMadTranscript } from "./tool-mad-transcript";
import { toolMadHeadline } from "./words";

/** Tool-MAD on the shared debate page: agents side by side per round, its judge's scores, its own form fields. */
export const views: MethodViews = {
  Transcript: ({ view, turns, selected, onSelect, verdict }) => (
    <ToolMadTranscript
      turns={turns}
      evidence={view.evidence}
      config={view.config as Record<string, unknown> | null}
      claim={view.claim.text}
      selected={selected}
      onSelect={onSelect}
      verdict={verdict}
    />
  ),
  VerdictExtra: JudgeScores,
  headline: (v) => toolMadHeadline(v.config as Record<string, unknown> | null),
  // Zero-token steps (gates, consensus, embeddings) are turns too, but not model calls.
  countsModelCalls: true,
  FormFields: (p) => (
    <ToolMadFields
      info={{
        presets: p.presets.map((x) => ({ name: x.name, labels: x.labels ?? "fever" })),
        schemes: TOOL_MAD_SCHEME_CHOICES,
        search: p.search,
      }}
      corpora={p.corpora}
      models={p.models}
      defaults={p.defaults}
      values={p.values}
      renderError={p.renderError}
    />
  ),
  formErrorFields: ["config.rounds", "config.labels", "config.gate", "config.agents"],
};
