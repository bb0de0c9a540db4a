import type { z } from "zod";

/**
 * A method note as the page holds it (the view's `notes`): what the protocol recorded with
 * ctx.note, by kind and key. Client-safe; the engine folds live notes in generically, and only the
 * method's own views read `value`, with the method's schema.
 */
export type ViewNote = { kind: string; key: string; value: unknown };

/** The notes with `note` added, or replacing the one of the same kind and key (a resumed run writes it again). */
export function withNote(notes: readonly ViewNote[], note: ViewNote): ViewNote[] {
  const i = notes.findIndex((n) => n.kind === note.kind && n.key === note.key);
  if (i === -1) return [...notes, note];
  const copy = notes.slice();
  copy[i] = note;
  return copy;
}

/** The notes of one kind read with the method's schema; one that does not parse (an old row) is left out. */
export function readNotes<T>(notes: readonly ViewNote[], kind: string, schema: z.ZodType<T>): T[] {
  const out: T[] = [];
  for (const n of notes) {
    if (n.kind !== kind) continue;
    const parsed = schema.safeParse(n.value);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
