import { readNotes } from "@/lib/debate/view-notes";
import { CHECKPOINT_NOTE, checkpointSchema } from "@/lib/debate/radar/checkpoint";
import { methodTitle } from "@/lib/debate/methods";
import type { MethodViews } from "@/components/debate/method-views";
import { CheckpointChart } from "./checkpoint-chart";
import { RadarFields } from "./radar-fields";

/** RADAR on the shared debate page: its checkpoints after the phase they follow, its expert's field in the headline, its own form fields. */
export const views: MethodViews = {
  headline: (v) => {
    const domain = typeof v.extras.domain === "string" ? v.extras.domain : null;
    return [
      methodTitle(v.protocol),
      v.variant ? `${v.variant}${domain ? ` (${domain} expert)` : ""}` : null,
      `${v.evidenceMode} evidence`,
    ]
      .filter(Boolean)
      .join(" · ");
  },
  AfterPhase: ({ view, phase }) =>
    readNotes(view.notes, CHECKPOINT_NOTE, checkpointSchema)
      .filter((c) => c.after === phase)
      .map((c) => <CheckpointChart key={c.after} checkpoint={c} protocol={view.protocol} />),
  workingWords: (role) =>
    role === "stop-agent"
      ? "The judge is deciding whether to stop…"
      : role === "round-judge"
        ? "The judge is weighing a provisional verdict…"
        : null,
  FormFields: RadarFields,
};
