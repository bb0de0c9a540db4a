import { createDeflate } from "node:zlib";

/*
 * PDFs written by the tests themselves: a one-page document with a given content stream. The
 * decompression bomb is a content stream that inflates to hundreds of MB from under a megabyte,
 * the shape of the PDF in issue 33 (784 KB inflating to 230 MB).
 */

function pdfWith(contents: Buffer[], filter: string | null): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (b: Buffer | string) => {
    const buf = typeof b === "string" ? Buffer.from(b, "latin1") : b;
    parts.push(buf);
    length += buf.length;
  };
  const obj = (n: number, body: Buffer | string) => {
    offsets[n] = length;
    add(`${n} 0 obj\n`);
    add(body);
    add("\nendobj\n");
  };
  // Objects: 1 catalog, 2 pages, 3 font, 4 info, then a page and its content stream per page.
  const pageIds = contents.map((_, i) => 5 + i * 2);
  add("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n");
  obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  obj(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${contents.length} >>`);
  obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  obj(4, "<< /Title (A test document) >>");
  contents.forEach((content, i) => {
    const id = pageIds[i]!;
    obj(
      id,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`,
    );
    obj(
      id + 1,
      Buffer.concat([
        Buffer.from(`<< /Length ${content.length}${filter ? ` /Filter /${filter}` : ""} >>\nstream\n`, "latin1"),
        content,
        Buffer.from("\nendstream", "latin1"),
      ]),
    );
  });
  const size = 5 + contents.length * 2;
  const xref = length;
  add(`xref\n0 ${size}\n0000000000 65535 f \n`);
  for (let i = 1; i < size; i++) add(`${String(offsets[i]).padStart(10, "0")} 00000 n \n`);
  add(`trailer\n<< /Size ${size} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** A normal PDF: each page's lines of text (pdf.js reads only what lies on the page: 40 lines of 80 characters fit). */
export function textPdf(...pages: string[][]): Buffer {
  const page = (lines: string[]) =>
    Buffer.from(
      lines.map((l, i) => `BT /F1 6 Tf 10 ${770 - i * 16} Td (${l.replace(/[()\\]/g, "\\$&")}) Tj ET`).join("\n"),
      "latin1",
    );
  return pdfWith(pages.map(page), null);
}

/**
 * A page whose Flate content stream inflates to `inflatedMb` MB of `chunk` repeated, compressed as
 * a stream so the test never holds the inflated bytes itself.
 */
export async function bombPdf(inflatedMb: number, chunk: string): Promise<Buffer> {
  const block = Buffer.from(chunk.repeat(Math.ceil((1024 * 1024) / chunk.length)).slice(0, 1024 * 1024), "latin1");
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  for (let i = 0; i < inflatedMb; i++) {
    if (!deflate.write(block)) await new Promise((r) => deflate.once("drain", r));
  }
  deflate.end();
  await done;
  return pdfWith([Buffer.concat(out)], "FlateDecode");
}
