/**
 * How a delta that carries its character offset joins the text a receiver holds. Shared by the
 * server's buffers (events.ts) and the browser's reducer (debate-live.tsx), so it has no imports.
 */
export type Splice =
  | { kind: "append"; text: string; added: string }
  | { kind: "duplicate" }
  | { kind: "gap"; missing: number };

/**
 * Joins a delta that starts at character `offset` (UTF-16 units, JS string length) to `text`:
 * a piece the receiver already holds is dropped, an overlapping one contributes only what is new,
 * one that starts past the end means text was lost in between (the receiver must resynchronise).
 */
export function spliceDelta(text: string, offset: number, delta: string): Splice {
  if (offset > text.length) return { kind: "gap", missing: offset - text.length };
  const end = offset + delta.length;
  if (end <= text.length) return { kind: "duplicate" };
  const added = delta.slice(text.length - offset);
  return { kind: "append", text: text + added, added };
}
