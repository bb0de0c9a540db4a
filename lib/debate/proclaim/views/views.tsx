import type { MethodViews } from "@/components/debate/method-views";
import { ProclaimDebate } from "./proclaim-debate";
import { ProclaimFields } from "./proclaim-fields";

/** PROClaim: a page of its own (the courtroom) and its own form fields. */
export const views: MethodViews = {
  Debate: ProclaimDebate,
  FormFields: (p) => (
    <ProclaimFields
      corpora={p.corpora}
      presets={p.presets.map((x) => ({ name: x.name, title: x.title }))}
      values={p.values}
      renderError={p.renderError}
    />
  ),
  formErrorFields: ["config.maxRounds"],
};
