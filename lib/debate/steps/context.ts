import { publish } from "../events";
import { runStore } from "../run-store";
import type { DebateContext } from "../types";
import { motionsAt, ruleOnMotion } from "../interventions/motions";
import { embed } from "./embed";
import { speak, speakJson, speakScored } from "./model-turn";
import { lookup } from "./lookup";
import { record } from "./record";
import { addEvidence, visibleTo, type Loaded, type RunScope } from "./scope";
import { tool } from "./tool";

/** What a protocol sees of its run: every step goes through a writer in this folder, each asking the journal first. */
export function debateContext(scope: RunScope, claim: Loaded["claim"]): DebateContext<unknown> {
  return {
    claim: {
      text: claim.text,
      date: claim.claimDate?.toISOString(),
      ...(typeof claim.metadata?.title === "string" ? { title: claim.metadata.title } : {}),
      ...(claim.appearanceUrl ? { url: claim.appearanceUrl } : {}),
    },
    // The pool the debate started with; tools add to it as it goes (evidenceFor).
    evidence: scope.pool.filter((e) => e.addedSeq === undefined),
    config: scope.config,
    fence: scope.fence,
    modelFor: scope.modelFor,
    signal: scope.signal,
    tokensSoFar: () => scope.spending.tokens,
    speak: (spec) => speak(scope, spec),
    speakScored: (spec) => speakScored(scope, spec),
    speakJson: (spec, schema) => speakJson(scope, spec, schema),
    record: (spec) => record(scope, spec),
    embed: (spec) => embed(scope, spec),
    lookup: (spec) => lookup(scope, spec),
    tool: (spec) => tool(scope, spec),
    // Every branch settles before the first failure is thrown: the run's outcome (failed, stopped,
    // handed back) is written only once none of its branches can still write a step.
    async parallel(branches) {
      const settled = await Promise.allSettled(branches.map((b) => b()));
      const failed = settled.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
      return settled.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<(typeof branches)[number]>>>).value);
    },
    evidenceFor: (role) => visibleTo(scope, role),
    addEvidence: (spec) => addEvidence(scope, spec),
    motions: (point) => motionsAt(scope, point),
    ruleOnMotion: (m, ruling) => ruleOnMotion(scope, m, ruling),
    budget: () => {
      const { spending } = scope;
      return {
        tokens: spending.tokens,
        calls: spending.calls,
        budgetTokens: spending.limits.budgetTokens,
        maxCalls: spending.limits.maxCalls,
        exhausted: spending.exhausted(),
      };
    },
    async note(name, value) {
      const kept = scope.protocol.notes?.[name];
      if (!kept)
        throw new Error(`protocol "${scope.protocol.name}" wrote a note "${name}" it does not declare in \`notes\``);
      const checked = kept.schema.parse(value);
      const key = kept.key(checked as never);
      // The engine stores it (the generic notes table), so a protocol never touches the database.
      await runStore().saveNote(scope.db, { debateId: scope.debateId, kind: name, key, value: checked });
      publish(scope.debateId, { type: "note", name, key, value: checked });
    },
  };
}
