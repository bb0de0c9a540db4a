import type { ComponentType } from "react";
import type { DebateView } from "@/lib/debate/view";
import type { ProtocolPageProps } from "./protocol-page";
import { ProclaimDebate } from "./proclaim/proclaim-debate";
import { toolMadHeadline } from "./tool-mad/words";
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
};

const VIEWS: Record<string, MethodViews> = {
  radar: {},
  "tool-mad": { transcript: "agent-columns", headline: (v) => toolMadHeadline(v.config as Record<string, unknown> | null), countsModelCalls: true },
  zofia: { Debate: ZofiaDebate },
  proclaim: { Debate: ProclaimDebate },
};

export function methodViews(method: string): MethodViews {
  return VIEWS[method] ?? {};
}

/** For tests and plugins: a method's views added at run time, never replacing another's. */
export function registerMethodViews(method: string, views: MethodViews): void {
  if (VIEWS[method]) throw new Error(`Views for the method "${method}" are already registered.`);
  VIEWS[method] = views;
}
