import { and, asc, eq, type SQL } from "drizzle-orm";
import { anyUuid, inChunks } from "@/db/bulk";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/**
 * Method notes (`debate_notes`): a method's own records beside its steps, stored generically. The
 * runner writes them when a protocol asks its context to (ctx.note); readers get them back as
 * `{ kind, key, value }` and read `value` with the method's own schema. Nothing here knows a method.
 */

export type StoredNote = { debateId: string; kind: string; key: string; value: Record<string, unknown> };

/** Writes a note; the same kind and key again replaces it (a resumed run reaches the same checkpoint again). */
export async function saveNote(db: Database, note: StoredNote) {
  await db
    .insert(s.debateNotes)
    .values(note)
    .onConflictDoUpdate({
      target: [s.debateNotes.debateId, s.debateNotes.kind, s.debateNotes.key],
      set: { value: note.value },
    });
}

/**
 * The notes of some debates, optionally of one kind, in the order they were first written. The ids
 * go as one array parameter per slice of MAX_ROWS_PER_STATEMENT (db/bulk.ts), so an evaluation
 * run's thousands of debates stay bounded statements.
 */
export async function notesOf(db: Database, debateIds: readonly string[], kind?: string): Promise<StoredNote[]> {
  if (!debateIds.length) return [];
  return inChunks(debateIds, (ids) => {
    const where: SQL[] = [anyUuid(s.debateNotes.debateId, ids)];
    if (kind) where.push(eq(s.debateNotes.kind, kind));
    return db
      .select({
        debateId: s.debateNotes.debateId,
        kind: s.debateNotes.kind,
        key: s.debateNotes.key,
        value: s.debateNotes.value,
      })
      .from(s.debateNotes)
      .where(and(...where))
      .orderBy(
        asc(s.debateNotes.debateId),
        asc(s.debateNotes.createdAt),
        asc(s.debateNotes.kind),
        asc(s.debateNotes.key),
      );
  });
}

/** Rows for an import (ids and times kept). Bounded like every multi-row insert (db/bulk.ts). */
export async function insertNotes(db: Pick<Database, "insert">, notes: readonly StoredNote[]) {
  await inChunks(notes, async (slice) => {
    await db.insert(s.debateNotes).values(slice).onConflictDoNothing();
    return [];
  });
}
