import {
  closeWaitingInterventions,
  listInterventions,
  markInterventionApplied,
  moveInterventionTo,
  type InterventionRow,
} from "@/db/queries/interventions";
import { joinPrompt, type PromptText } from "@/lib/prompts/text";
import { publish, subscribe } from "../events";
import { findMethod } from "../methods";
import { runStore } from "../run-store";
import type { DebateEvidence, TurnSpec } from "../types";
import { checkNotStopped, checkStillHeld, type RunScope } from "../steps/scope";
import type { AddedPassage } from "./service";
import { interventionPromptParts } from "./prompt-parts";
import { interventionView } from "./view";

/*
 * The engine's half of interventions: at a step boundary (just before a new model turn is opened,
 * never for a turn replayed from the journal) the runner reads the debate's interventions and
 * applies the ones waiting to this turn, recording in each one the stored turn it preceded
 * (`before_seq`). That record is the journal of interventions: a resumed run that opens the same
 * turn again applies the same ones again (same prompt), and one applied before an earlier turn is
 * never applied again. Protocols never see the database; they see the evidence pool grow, a
 * question in the next prompt, a struck passage gone from it, and a judge that waits while held.
 */

/** Origin of evidence a person added (debate_evidence.origin). */
export const PERSON_ORIGIN = "person";

/** How long a held judge sleeps between looks at the database when no event wakes it (a release on another server). */
const HELD_RECHECK_MS = 2_000;

type Payload = {
  question?: string;
  hold?: boolean;
  evidenceRank?: number;
  reason?: string;
  passage?: AddedPassage;
};
const payload = (r: InterventionRow) => r.payload as Payload;

/**
 * Applies the debate's interventions to the turn about to be opened as `seq`; returns the spec
 * with the prompt it must carry. A judging turn first waits while the verdict is held.
 */
export function applyInterventions<T extends TurnSpec>(scope: RunScope, spec: T, seq: number): Promise<T> {
  // One at a time per run: branches opening turns side by side (ctx.parallel) must not both take
  // the same waiting intervention (the first takes it; the others see it applied to its turn).
  const before = queues.get(scope) ?? Promise.resolve();
  const mine = before.then(() => applyNow(scope, spec, seq));
  queues.set(
    scope,
    mine.then(
      () => undefined,
      () => undefined,
    ),
  );
  return mine;
}
const queues = new WeakMap<RunScope, Promise<void>>();
const openedSeqs = new WeakMap<RunScope, Set<number>>();
/** Turns this run opened (finished or still running): none of them was cut short by an earlier run. */
function openedHere(scope: RunScope): Set<number> {
  let set = openedSeqs.get(scope);
  if (!set) openedSeqs.set(scope, (set = new Set()));
  return set;
}
/** A step's identity in the journal (journal.ts): what it is, not when it ran. */
const stepKey = (t: Pick<TurnSpec, "round" | "phase" | "role" | "kind">) => `${t.round} ${t.phase} ${t.role} ${t.kind}`;

async function applyNow<T extends TurnSpec>(scope: RunScope, spec: T, seq: number): Promise<T> {
  let rows = await listInterventions(scope.db, scope.debateId);
  if (!rows.length) return spec;
  if (spec.kind === "judge") rows = await waitWhileHeld(scope, rows, seq, spec);

  // Applied to a turn of this step's identity that an earlier run opened but never finished (cut,
  // or stopped): that step runs again now, under this number, and takes them again.
  const step = stepKey(spec);
  const opened = openedHere(scope);
  opened.add(seq);
  const finished = new Set(
    scope.journal
      .done()
      .filter((t) => t.status === "completed")
      .map((t) => t.seq),
  );
  for (const r of rows) {
    const from = r.beforeSeq;
    if (r.status !== "applied" || from === null || from === seq || r.beforeStep !== step) continue;
    if (finished.has(from) || opened.has(from)) continue;
    if (await moveInterventionTo(scope.db, r.id, from, seq, r.kind === "ask")) {
      Object.assign(r, { beforeSeq: seq, ...(r.kind === "ask" ? { answeredBySeq: seq } : {}) });
      publish(scope.debateId, { type: "intervention", intervention: interventionView(r) });
    }
  }

  // This turn's: applied to it already (above, or by an earlier run that did not finish it under
  // the same number), or waiting until now (holds and releases only at a judging turn, the one
  // they are about).
  // A waiting one only at a step of a kind the method says takes it (RADAR: a speech or its judge).
  const accepts = findMethod(scope.protocol.name)?.interventions;
  const takenBy = accepts?.takenBy;
  const takes = !takenBy || takenBy.includes(spec.kind);
  const mine = rows.filter(
    (r) =>
      (r.kind !== "hold_verdict" || spec.kind === "judge") &&
      // A motion is the method's to hear and rule on (motions.ts), never taken at a turn boundary.
      (r.kind !== "add_evidence" || !accepts?.motions) &&
      ((r.status === "waiting" && takes) || (r.status === "applied" && r.beforeSeq === seq)),
  );
  const added = await addPassages(
    scope,
    seq,
    mine.filter((r) => r.kind === "add_evidence"),
  );
  for (const r of mine) {
    if (r.status !== "waiting") continue;
    const at = {
      beforeSeq: seq,
      beforeStep: step,
      answeredBySeq: r.kind === "ask" ? seq : null,
      evidenceRank: added.get(r.id)?.rank ?? null,
    };
    // Conditional on `waiting`: whichever run records it first wins, so it is applied once.
    if (await markInterventionApplied(scope.db, r.id, at)) {
      Object.assign(r, { status: "applied", ...at });
      publish(scope.debateId, { type: "intervention", intervention: interventionView(r) });
    }
  }

  // Struck before this turn (or at it): gone from what roles read and from this prompt.
  const struck = rows.filter((r) => r.kind === "strike" && r.status === "applied" && (r.beforeSeq ?? Infinity) <= seq);
  for (const r of struck) scope.struck.set(payload(r).evidenceRank!, payload(r).reason ?? "");

  const parts = interventionPromptParts(scope.fence, {
    questions: mine.filter((r) => r.kind === "ask").map((q) => payload(q).question ?? ""),
    passages: [...added.values()],
    struck: struck.map((r) => ({ rank: payload(r).evidenceRank!, reason: payload(r).reason ?? "" })),
  });
  if (!parts.length && !scope.struck.size) return spec;
  const strip = (t: PromptText) => withoutStruck(scope, t);
  return {
    ...spec,
    // Before the turn's own prompt, so the method's answer format stays its last word.
    prompt: parts.length ? joinPrompt([...parts, strip(spec.prompt)], "\n\n") : strip(spec.prompt),
    ...(spec.messages
      ? {
          messages: spec.messages.map((m) =>
            m.role === "user" ? { ...m, content: strip(m.content) } : { ...m, content: stripPlain(scope, m.content) },
          ),
        }
      : {}),
  } as T;
}

/** The forms a struck passage's text takes in a prompt: as given, whitespace folded (evidence blocks), each as fenced. */
function struckForms(scope: RunScope): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [rank] of scope.struck) {
    const e = scope.pool.find((p) => p.rank === rank);
    if (!e) continue;
    const mark = `(E${rank} was struck by a person; its text is removed)`;
    const forms = new Set([e.text.trim(), e.text.replace(/\s+/g, " ").trim()]);
    for (const f of [...forms]) forms.add(scope.fence.neutralise(f));
    for (const f of forms) if (f.length >= 20) out.push([f, mark]);
  }
  return out;
}

/** The prompt with every struck passage's text replaced by a program-written mark (the mark is trusted, the rest keeps its fences). */
function withoutStruck(scope: RunScope, text: PromptText): PromptText {
  return stripPlain(scope, text) as PromptText;
}

function stripPlain(scope: RunScope, text: string): string {
  let out = text;
  for (const [form, mark] of struckForms(scope)) out = out.split(form).join(mark);
  return out;
}

/** Adds the passages of these interventions to the pool before turn `seq` (the rows an earlier run stored, if any). */
async function addPassages(
  scope: RunScope,
  seq: number,
  rows: InterventionRow[],
): Promise<Map<string, DebateEvidence>> {
  const out = new Map<string, DebateEvidence>();
  if (!rows.length) return out;
  const fresh: DebateEvidence[] = [];
  let rank = scope.pool.reduce((m, e) => Math.max(m, e.rank), 0);
  for (const r of rows) {
    const stored = scope.pool.find((e) => e.origin === PERSON_ORIGIN && e.metadata?.interventionId === r.id);
    if (stored) {
      out.set(r.id, stored);
      continue;
    }
    const p = payload(r).passage;
    if (!p) continue;
    const e: DebateEvidence = {
      rank: ++rank,
      text: p.text,
      source: "supplied",
      title: p.title,
      ...(p.url ? { url: p.url } : {}),
      ...(p.publishedAt ? { publishedAt: p.publishedAt } : {}),
      ...(p.passageId ? { passageId: p.passageId } : {}),
      origin: PERSON_ORIGIN,
      addedSeq: seq,
      metadata: { interventionId: r.id, addedBy: r.byName },
    };
    fresh.push(e);
    out.set(r.id, e);
  }
  if (fresh.length) {
    checkStillHeld(scope);
    scope.pool.push(...fresh);
    await runStore().addDebateEvidence(scope.db, scope.debateId, fresh);
    publish(scope.debateId, { type: "evidence", evidence: fresh });
  }
  return out;
}

/**
 * A judging turn waits while the last hold on the verdict holds: it sleeps until an intervention
 * event reaches this process (a release here, or from another server over the bus), a Stop, or a
 * slow re-check of the database; it never spins. Returns the interventions as last read.
 */
async function waitWhileHeld(
  scope: RunScope,
  rows: InterventionRow[],
  seq: number,
  spec: TurnSpec,
): Promise<InterventionRow[]> {
  for (;;) {
    const last = rows.filter((r) => r.kind === "hold_verdict").at(-1);
    if (!last || !payload(last).hold) return rows;
    // The hold is on the record (applied before this judging turn) while the judge waits, so the page shows it waiting.
    for (const r of rows) {
      if (r.kind !== "hold_verdict" || r.status !== "waiting") continue;
      if (await markInterventionApplied(scope.db, r.id, { beforeSeq: seq, beforeStep: stepKey(spec) })) {
        Object.assign(r, { status: "applied", beforeSeq: seq, beforeStep: stepKey(spec) });
        publish(scope.debateId, { type: "intervention", intervention: interventionView(r) });
      }
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        off();
        scope.signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, HELD_RECHECK_MS);
      const off = subscribe(scope.debateId, (e) => {
        if (e.type === "intervention") done();
      });
      scope.signal.addEventListener("abort", done, { once: true });
    });
    checkNotStopped(scope);
    rows = await listInterventions(scope.db, scope.debateId);
  }
}

/** Why an intervention the debate never reached was closed, in words for the page. */
const UNREACHED: Record<string, string> = {
  hold_verdict: "The debate reached its verdict without a judging step that could wait (it ended by consensus).",
  add_evidence: "The debate reached its verdict before this passage could be heard.",
  ask: "The debate reached its verdict before a turn could answer this.",
  strike: "The debate reached its verdict before this could be applied.",
};

/**
 * The verdict says people intervened (`details.intervened`, with how many were applied), so an
 * evaluation can leave such debates out and a published fact-check can say so. Only the engine
 * applies interventions, and it has finished, so the count cannot change after this read.
 */
export async function withInterventions<V extends { details?: Record<string, unknown> }>(
  scope: Pick<RunScope, "db" | "debateId">,
  verdict: V,
): Promise<V> {
  const applied = (await listInterventions(scope.db, scope.debateId)).filter((r) => r.status === "applied");
  if (!applied.length) return verdict;
  return { ...verdict, details: { ...verdict.details, intervened: true, interventions: applied.length } };
}

/**
 * Never left "waiting" for ever: the ones the debate did not reach (a hold in a debate that ended
 * without a judging turn, a motion filed after the court's last hearing, one filed while the verdict
 * was being written) are closed, saying so, in the verdict's own transaction (see
 * `closeWaitingInterventions`). Returns what to tell the page once that transaction commits.
 */
export async function closeUnreached(
  tx: Parameters<typeof closeWaitingInterventions>[0],
  debateId: string,
): Promise<() => void> {
  const closed = await closeWaitingInterventions(tx, debateId, (kind) => UNREACHED[kind] ?? UNREACHED.ask!);
  return () => {
    for (const r of closed) publish(debateId, { type: "intervention", intervention: interventionView(r) });
  };
}
