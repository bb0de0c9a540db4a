import chardet from "chardet";
import iconv from "iconv-lite";

/*
 * Bytes to text for the formats read whole. Decoding everything as UTF-8 turned Latin-1 and
 * Windows-1252 files into "vot\uFFFD" with no error, and read images named .txt as text. Here a
 * file is either decoded in the encoding it is in (declared, marked by a byte-order mark, valid
 * UTF-8, or detected), or refused with the reason.
 */

/** A file that is not text we can read, with the reason and what to do. */
export class NotTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotTextError";
  }
}

const SAMPLE = 64 * 1024;

/** Control bytes that text files do not contain (tab, newlines, form feed and escape do occur). */
function looksBinary(sample: Buffer): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27 && b !== 11) control++;
  }
  return control / sample.length > 0.02;
}

function isUtf8(data: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/** `<meta charset>` or the http-equiv form, from the first bytes of an HTML page. */
export function htmlDeclaredCharset(data: Buffer): string | undefined {
  const head = data.subarray(0, 2048).toString("latin1");
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}

export type Decoded = { text: string; encoding: string };

/**
 * Decodes `data`. `declared` is a charset named by the source (HTTP header, HTML meta); it is
 * used when the bytes are not valid UTF-8, since a wrong declaration is common and valid UTF-8
 * is almost never an accident.
 */
export function decodeText(data: Buffer, name: string, declared?: string): Decoded {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf)
    return { text: data.subarray(3).toString("utf8"), encoding: "UTF-8" };
  if (data[0] === 0xff && data[1] === 0xfe)
    return { text: iconv.decode(data.subarray(2), "utf-16le"), encoding: "UTF-16LE" };
  if (data[0] === 0xfe && data[1] === 0xff)
    return { text: iconv.decode(data.subarray(2), "utf-16be"), encoding: "UTF-16BE" };
  if (looksBinary(data.subarray(0, SAMPLE))) {
    throw new NotTextError(
      `${name}: this looks like a binary file (an image, archive or program), not text; nothing was stored. Save the document as .pdf, .html, .md or .txt and upload that`,
    );
  }
  if (isUtf8(data)) return { text: data.toString("utf8"), encoding: "UTF-8" };
  const candidates = [declared, chardet.detect(data.subarray(0, 1024 * 1024))].filter(
    (e): e is string => !!e && !/^utf-?8$/i.test(e) && iconv.encodingExists(e),
  );
  const encoding = candidates[0];
  if (!encoding) {
    throw new NotTextError(
      `${name}: the text is not UTF-8 and its encoding could not be recognised; nothing was stored. Save it as UTF-8 (in most editors: "Save as" → encoding UTF-8) and upload it again`,
    );
  }
  return { text: iconv.decode(data, encoding), encoding: encoding.toUpperCase() };
}
