/**
 * Lines of a byte stream with their exact byte offsets. readline hides offsets, and offsets are
 * what make a resume after a crash start where the last committed batch ended instead of
 * re-reading a gigabyte.
 */
/** `notUtf8` marks a line that had to be decoded with replacement characters; readers decide whether to refuse it. */
export type Line =
  | { line: number; text: string; bytesEnd: number; notUtf8?: true }
  | { line: number; tooLong: true; bytesEnd: number };

// Fatal: a line in another encoding is reported, not stored with U+FFFD where its letters were.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export async function* readLines(
  input: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>,
  opts: { startByte?: number; startLine?: number; maxLineBytes: number },
): AsyncGenerator<Line> {
  let offset = opts.startByte ?? 0;
  let line = opts.startLine ?? 0;
  let carry: Buffer[] = [];
  let carryLen = 0;
  let tooLong = false;
  let atStart = offset === 0;

  const finish = (piece: Buffer, bytesEnd: number): Line => {
    line++;
    if (tooLong || carryLen + piece.length > opts.maxLineBytes) {
      tooLong = false;
      carry = [];
      carryLen = 0;
      return { line, tooLong: true, bytesEnd };
    }
    const bytes = carry.length ? Buffer.concat([...carry, piece]) : piece;
    carry = [];
    carryLen = 0;
    let text: string;
    let notUtf8: true | undefined;
    try {
      text = utf8.decode(bytes);
    } catch {
      text = bytes.toString("utf8");
      notUtf8 = true;
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (atStart) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      atStart = false;
    }
    return notUtf8 ? { line, text, bytesEnd, notUtf8 } : { line, text, bytesEnd };
  };

  for await (const raw of input) {
    const chunk =
      typeof raw === "string"
        ? Buffer.from(raw)
        : Buffer.isBuffer(raw)
          ? raw
          : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) {
        if (!tooLong && pos < chunk.length) {
          // Copy: a subarray would pin the whole read buffer for as long as the line lasts.
          carry.push(Buffer.from(chunk.subarray(pos)));
          carryLen += chunk.length - pos;
          if (carryLen > opts.maxLineBytes) {
            tooLong = true;
            carry = [];
            carryLen = 0;
          }
        }
        break;
      }
      yield finish(tooLong ? Buffer.alloc(0) : chunk.subarray(pos, nl), offset + nl + 1);
      pos = nl + 1;
    }
    offset += chunk.length;
  }
  if (carryLen > 0 || tooLong) yield finish(Buffer.alloc(0), offset);
}
