import type { ComponentType, ReactNode } from "react";
import type { DebateView } from "@/lib/debate/view";
import type { ProtocolPageProps } from "./protocol-page";
import { ProclaimDebate } from "./proclaim/proclaim-debate";
import { toolMadHeadline } from "./tool-mad/words";
import { TOOL_MAD_SCHEME_CHOICES, ToolMadFields } from "./tool-mad/tool-mad-fields";
import { ZofiaFields } from "./zofia/zofia-fields";
import { ProclaimFields } from "./proclaim/proclaim-fields";

/** What the single-debate form hands a method's own settings. */
export type MethodFormProps = {
  corpora: Array<{ name: string; passages: number }>;
  models: string[];
  defaults: { default: string; roles: Record<string, string> };
  /** What the user sent last time (kept after an error). */
  values: Record<string, string>;
  renderError: (field: string) => ReactNode;
  /** The method's presets the form offers (its definition's `formPresets`). */
  presets: ReadonlyArray<{ name: string; title: string; labels?: string }>;
  /** Where a web search goes on this server: the configured provider, or the corpus stand-in. */
  search: { label: string; live: boolean };
};
import { ZofiaDebate } from "./zofia/zofia-debate";

/**
 * The registry of per-method view components: what the debate page, the form and the comparison
 * draw for a method, by its name, next to lib/debate/methods.ts (what the method is). A method
 * without an entry gets the shared page (a transcript by phase, the judge's verdict), which is
 * what RADAR uses, so a new method shows up before it has views of its own.
 */
export type MethodViews = {
  /** A page of its own (ZoFia's pipeline, PROClaim's courtroom); without one, the shared page. */
  Debate?: ComponentType<ProtocolPageProps>;
  /** The shared page's transcript laid out as agents side by side per round (Tool-MAD) instead of by phase. */
  transcript?: "agent-columns";
  /** The line under the status on the shared page; default "<title> · <variant> · <evidence>". */
  headline?(view: Pick<DebateView, "config" | "variant" | "evidenceMode" | "domain">): string;
  /** Zero-token steps (gates, embeddings) are not model calls: count calls, not turns. */
  countsModelCalls?: boolean;
  /** The form's settings for the method, in place of the shared evidence and debate settings. */
  FormFields?: ComponentType<MethodFormProps>;
  /** Configuration fields its settings show, so a validation error is shown beside them rather than at the top. */
  formErrorFields?: readonly string[];
};

const VIEWS: Record<string, MethodViews> = {
  radar: {},
  "tool-mad": {
    transcript: "agent-columns",
    headline: (v) => toolMadHeadline(v.config as Record<string, unknown> | null),
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
  },
  zofia: {
    Debate: ZofiaDebate,
    FormFields: (p) => <ZofiaFields corpora={p.corpora} defaultCorpus={p.values.corpus} />,
  },
  proclaim: {
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
  },
};

export function methodViews(method: string): MethodViews {
  return VIEWS[method] ?? {};
}

/** For tests and plugins: a method's views added at run time, never replacing another's. */
export function registerMethodViews(method: string, views: MethodViews): void {
  if (VIEWS[method]) throw new Error(`Views for the method "${method}" are already registered.`);
  VIEWS[method] = views;
}
