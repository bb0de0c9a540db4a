import type { ComponentType, ReactNode } from "react";
import type { DebateView } from "@/lib/debate/view";
import type { ProtocolPageProps } from "./protocol-page";
import type { TurnLike } from "./turn-card";
import { METHOD_VIEWS } from "./registry.generated";

/** What a method's own transcript gets (`Transcript`): the turns with the ones being written, and the verdict card to place. */
export type TranscriptProps = {
  view: DebateView;
  turns: TurnLike[];
  selected: number | null;
  onSelect: (rank: number | null) => void;
  verdict: ReactNode;
};

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

/**
 * The registry of per-method view components: what the debate page, the form and the comparison
 * draw for a method, by its name, next to lib/debate/methods.ts (what the method is). A method
 * without an entry gets the shared page (a transcript by phase, the judge's verdict) and the
 * neutral form (evidence, a model per role), so a new method shows up before it has views of its own.
 */
export type MethodViews = {
  /** A page of its own (ZoFia's pipeline, PROClaim's courtroom); without one, the shared page. */
  Debate?: ComponentType<ProtocolPageProps>;
  /** The shared page's transcript drawn by the method (Tool-MAD: agents side by side per round) instead of by phase. */
  Transcript?: ComponentType<TranscriptProps>;
  /** Drawn after each phase of the shared transcript (RADAR: the checkpoint that followed it); reads the view's `notes`. */
  AfterPhase?: ComponentType<{ view: DebateView; phase: string }>;
  /** The line shown while a non-speech step of this role runs; null: "The judge is deciding…". */
  workingWords?(role: string): string | null;
  /** Under the verdict card (Tool-MAD: the scores its judge weighed), from the verdict's details. */
  VerdictExtra?: ComponentType<{ details: Record<string, unknown> | null }>;
  /** The line under the status on the shared page; default "<title> · <variant> · <evidence>". */
  headline?(view: Pick<DebateView, "protocol" | "config" | "variant" | "evidenceMode" | "extras">): string;
  /** Zero-token steps (gates, embeddings) are not model calls: count calls, not turns. */
  countsModelCalls?: boolean;
  /** The form's settings for the method, in place of the shared evidence and debate settings. */
  FormFields?: ComponentType<MethodFormProps>;
  /** Configuration fields its settings show, so a validation error is shown beside them rather than at the top. */
  formErrorFields?: readonly string[];
};

// One entry per method, each defined in the method's own folder (components/debate/<method>/views.tsx)
// and gathered from the one list of methods (lib/debate/methods.json) by the generated barrel.
const VIEWS: Record<string, MethodViews> = { ...METHOD_VIEWS };

export function methodViews(method: string): MethodViews {
  return VIEWS[method] ?? {};
}

/** For tests and plugins: a method's views added at run time, never replacing another's. */
export function registerMethodViews(method: string, views: MethodViews): void {
  if (VIEWS[method]) throw new Error(`Views for the method "${method}" are already registered.`);
  VIEWS[method] = views;
}
