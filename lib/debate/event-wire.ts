import { z } from "zod";

export { spliceDelta, type Splice } from "./splice";

/**
 * The pure parts of carrying debate events between processes (see pg-bus.ts): how a delta with a
 * character offset joins the text a receiver already has, and how a message is cut into NOTIFY
 * payloads under PostgreSQL's 8000-byte limit and put back together. No I/O here, so all of it is
 * unit-tested.
 */

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; we stay well under with the envelope. */
export const NOTIFY_LIMIT_BYTES = 8000;
/** Room for a piece's text once the envelope (origin, ids, JSON quoting) is around it. */
export const PIECE_BYTES = 6000;

const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

/**
 * Cuts `s` into pieces of at most `maxBytes` UTF-8 bytes each, never between the two halves of a
 * surrogate pair (a lone half would not survive the trip through UTF-8).
 */
export function splitByBytes(s: string, maxBytes: number): string[] {
  if (maxBytes < 4) throw new Error("maxBytes must fit one character");
  const out: string[] = [];
  let start = 0;
  while (start < s.length) {
    let bytes = 0;
    let i = start;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length;
      const w = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      if (bytes + w > maxBytes) break;
      bytes += w;
      i += pair ? 2 : 1;
    }
    out.push(s.slice(start, i));
    start = i;
  }
  return out;
}

/**
 * One NOTIFY payload. `o`: the sending process (a process drops its own), `k` its message number;
 * then either a whole message `m`, or piece `i` of `n` of message `k` (its JSON text cut by bytes), or a request `q`
 * that the process running the debate send everyone the text so far of its running turns.
 */
export const wireSchema = z.union([
  // Strict, so a piece is never read as a whole message whose `m` is missing.
  z.strictObject({
    o: z.string(),
    k: z.number().int(),
    i: z.number().int().min(0),
    n: z.number().int().min(1),
    p: z.string(),
  }),
  z.strictObject({ o: z.string(), q: z.literal("sync") }),
  z.strictObject({ o: z.string(), k: z.number().int(), m: z.unknown() }),
]);
export type Wire = z.infer<typeof wireSchema>;

/** The payloads for one message, each under the NOTIFY limit. */
export function encodeMessage(origin: string, key: number, message: unknown): string[] {
  // `k` also keeps two equal messages in one transaction apart: PostgreSQL folds identical payloads.
  const whole = JSON.stringify({ o: origin, k: key, m: message });
  if (utf8(whole) <= PIECE_BYTES) return [whole];
  const pieces = splitByBytes(JSON.stringify(message), PIECE_BYTES);
  return pieces.map((p, i) => JSON.stringify({ o: origin, k: key, i, n: pieces.length, p }));
}

/**
 * Puts pieces back together, per sender. NOTIFY delivers one sender's payloads on a channel in
 * order, so pieces of one message arrive consecutively; a piece out of place (a connection lost
 * in the middle) drops the partial message and the receiver is told, so it can resynchronise.
 */
export class Reassembler {
  private partial = new Map<string, { k: number; next: number; n: number; parts: string[] }>();

  /** The message, `null` while more pieces are due, or `"lost"` when pieces went missing. */
  accept(w: Wire): { message: unknown } | null | "lost" {
    if ("m" in w) return { message: w.m };
    if ("q" in w) return null;
    const cur = this.partial.get(w.o);
    if (w.i === 0) {
      const lost = cur !== undefined;
      if (w.n === 1) {
        this.partial.delete(w.o);
        return { message: JSON.parse(w.p) };
      }
      this.partial.set(w.o, { k: w.k, next: 1, n: w.n, parts: [w.p] });
      return lost ? "lost" : null;
    }
    if (!cur || cur.k !== w.k || cur.next !== w.i) {
      this.partial.delete(w.o);
      return "lost";
    }
    cur.parts.push(w.p);
    cur.next++;
    if (cur.next < cur.n) return null;
    this.partial.delete(w.o);
    return { message: JSON.parse(cur.parts.join("")) };
  }

  clear() {
    this.partial.clear();
  }
}
