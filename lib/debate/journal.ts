import type { turns } from "@/db/schema";

/**
 * The journal: what a debate has already done, and how a resumed run finds it.
 *
 * A protocol is ordinary code that asks the context for steps (a model turn, a computed record, an
 * embedding, a tool call). Every finished step is stored as a row of `turns` before the protocol
 * goes on, so a crash, a restart or a Stop loses at most the step in progress. To continue, a new
 * run simply runs the protocol again from its first line, and asks the journal before each step:
 *
 *   - A step's identity is what it is, not when it ran: its round, phase, role and kind, plus how
 *     many steps with the same four came before it in this run (the occurrence). Identity, not
 *     position, so branches that ran side by side (ctx.parallel) replay whatever order they
 *     finished in, and a protocol that asks the same question twice gets each answer in turn.
 *   - `lookup(step, kind)` counts the occurrence and returns the stored row of that identity if an
 *     earlier run finished it. The step is then not run: the context hands back what was stored
 *     (text, parsed JSON, vectors, search results), so the protocol takes the same path as before.
 *     Protocols are deterministic outside their steps for this reason: whatever varies (the model,
 *     the clock, a search) happens inside a step and is recorded.
 *   - Otherwise the step runs, and `next()` gives it a number after every kept row (a turn a user
 *     stopped keeps its row and its number, though it is never replayed); its writer stores it and
 *     `record(row)` adds it to what is done.
 *   - Unfinished rows an earlier run left (a turn cut mid-stream) are not in the journal: the runner
 *     deletes them before the run starts, and the step that wrote them runs again.
 *
 * The journal is an index in memory, built once from the rows the run loaded; it reads nothing
 * and writes nothing itself. The writers in `steps/` store each kind of step.
 */

/** A stored step, as loaded for a run. */
export type JournalRow = typeof turns.$inferSelect;

/** What makes two steps the same step: see above. */
export type StepIdentity = { round: number; phase: string; role: string };

const identity = (t: StepIdentity, kind: string) => `${t.round}\u0000${t.phase}\u0000${t.role}\u0000${kind}`;

export class Journal {
  /** Finished rows by identity, in the order they were numbered (the occurrence indexes this list). */
  private readonly finished = new Map<string, JournalRow[]>();
  private readonly occurrences = new Map<string, number>();
  private readonly rows: JournalRow[];
  private lastSeq: number;

  /** `kept`: the debate's rows a resume keeps (KEPT_TURN_STATUSES in db/queries/debates.ts), in any order. */
  constructor(kept: readonly JournalRow[]) {
    this.rows = [...kept].sort((a, b) => a.seq - b.seq);
    for (const t of this.rows) {
      if (t.status !== "completed") continue;
      const k = identity(t, t.kind);
      const list = this.finished.get(k);
      if (list) list.push(t);
      else this.finished.set(k, [t]);
    }
    this.lastSeq = this.rows.reduce((m, t) => Math.max(m, t.seq), 0);
  }

  /** The stored row this step replays, if an earlier run finished it; counts the step either way. */
  lookup(step: StepIdentity, kind: string): JournalRow | undefined {
    const k = identity(step, kind);
    const n = this.occurrences.get(k) ?? 0;
    this.occurrences.set(k, n + 1);
    return this.finished.get(k)?.[n];
  }

  /** The number of a step about to run: after every kept row and every step numbered before it. */
  next(): number {
    return ++this.lastSeq;
  }

  /** A step this run finished and stored joins what is done. */
  record(row: Pick<JournalRow, "seq" | "round" | "phase" | "role" | "kind" | "status">): void {
    this.rows.push(row as JournalRow);
  }

  /** What is done, by number: rows kept from earlier runs and steps recorded in this one. */
  done(): ReadonlyArray<Pick<JournalRow, "seq" | "round" | "phase" | "role" | "kind" | "status">> {
    return [...this.rows].sort((a, b) => a.seq - b.seq);
  }
}
