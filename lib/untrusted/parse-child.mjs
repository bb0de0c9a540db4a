/*
 * The parsing child (lib/untrusted/bounded.ts starts it): reads one untrusted document (PDF or HTML)
 * and answers over IPC. It runs in its own process because a small file can expand to gigabytes
 * (a PDF's compressed streams) or nest deep enough to exhaust a stack: the parent caps its memory
 * and time and kills it when over, so the server's own process never holds what a document
 * inflates to. Inside, it also stops at its limits while reading (characters, pages, nesting
 * depth) rather than reading everything and measuring afterwards.
 *
 * Plain JavaScript: started with node from the source folder, not from a bundle Next.js built.
 * Messages in: { kind: "pdf" | "html-text" | "article-dom" | "html-jsonld", data, limits }. Out: { ok: result } or
 * { refused: { limit, found } } or { error: message }.
 */
import { parseHTML } from "linkedom";

/** Deepest element nesting of a parsed DOM, walked without recursion; stops as soon as it passes `max`. */
function depthOver(root, max) {
  const stack = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop();
    if (depth > max) return depth;
    for (const child of node.children ?? []) stack.push([child, depth + 1]);
  }
  return 0;
}

class Refused extends Error {
  constructor(limit, found) {
    super(limit);
    this.limit = limit;
    this.found = found;
  }
}

function checkDepth(html, max) {
  const { document } = parseHTML(html);
  const over = depthOver(document, max);
  if (over) throw new Refused("depth", over);
  return document;
}

async function pdf(data, limits) {
  const { getDocumentProxy } = await import("unpdf");
  let doc;
  try {
    // pdf.js decodes compressed streams lazily, as the text reader asks for bytes; stopping the
    // reader at the character limit stops the inflation too.
    doc = await getDocumentProxy(new Uint8Array(data), { isEvalSupported: false });
  } catch (e) {
    return { unreadable: String(e?.message ?? e) };
  }
  try {
    if (doc.numPages > limits.maxPages) throw new Refused("pages", doc.numPages);
    const pages = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const reader = page.streamTextContent().getReader();
      let text = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const item of value.items) {
          if (typeof item.str !== "string") continue;
          text += item.str;
          if (item.hasEOL) text += "\n";
          chars += item.str.length;
        }
        if (chars > limits.maxChars) {
          await reader.cancel().catch(() => {});
          throw new Refused("chars", chars);
        }
      }
      pages.push(text.trim());
      page.cleanup();
    }
    let title;
    try {
      const t = (await doc.getMetadata()).info?.Title;
      if (typeof t === "string" && t.trim()) title = t.trim().slice(0, 500);
    } catch {
      // Metadata is optional; the text is what matters.
    }
    return { pages, title, numPages: doc.numPages };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

async function htmlText({ html, options }, limits) {
  checkDepth(html, limits.maxDepth);
  const { convert } = await import("html-to-text");
  const titleHtml = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const bodyHtml = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html.replace(/<head[^>]*>[\s\S]*?<\/head>/i, "");
  const title = titleHtml ? convert(titleHtml, options).replace(/\s+/g, " ").trim() : undefined;
  const text = convert(bodyHtml, options);
  if (text.length > limits.maxChars) throw new Refused("chars", text.length);
  return { text, title: title || undefined };
}

const BLOCKS = "h1, h2, h3, h4, h5, h6, p, li, blockquote, pre, figcaption, td";
const clean = (s) => (s ?? "").replace(/\s+/g, " ").trim();

/** Readability's reading of a news page, with what lib/article needs to finish the job in the parent. */
async function articleDom(input, limits) {
  const { html, pageUrl } = input;
  const document = checkDepth(html, limits.maxDepth);
  const { Readability } = await import("@mozilla/readability");
  const meta = (sel) => document.querySelector(sel)?.getAttribute("content") ?? null;
  const fallbackTitle = clean(meta('meta[property="og:title"]') ?? document.querySelector("title")?.textContent);
  const dates = [
    meta('meta[property="article:published_time"]'),
    meta('meta[name="article:published_time"]'),
    meta('meta[itemprop="datePublished"]'),
    meta('meta[name="date"]'),
    meta('meta[name="pubdate"]'),
    meta('meta[name="dc.date"]'),
    meta('meta[name="DC.date.issued"]'),
    document.querySelector("time[datetime]")?.getAttribute("datetime") ?? null,
  ];
  let parsed = null;
  try {
    // linkedom has no base URL of its own; Readability resolves links against documentURI.
    Object.defineProperty(document, "documentURI", { value: pageUrl, configurable: true });
    parsed = new Readability(document, { charThreshold: 200 }).parse();
  } catch {
    parsed = null;
  }
  let text = "";
  if (parsed?.content) {
    // Block by block, so paragraphs survive (Readability's textContent runs them together).
    const { document: body } = parseHTML(`<!doctype html><html><body>${parsed.content}</body></html>`);
    const out = [];
    for (const el of Array.from(body.querySelectorAll(BLOCKS))) {
      // A paragraph inside a list item or quote is read once, as part of the outer block's own children.
      if (el.parentElement?.closest(BLOCKS)) continue;
      const t = clean(el.textContent);
      if (t) out.push(t);
    }
    text = out.length ? out.join("\n\n") : clean(body.body?.textContent);
  }
  return {
    found: !!parsed,
    title: clean(parsed?.title),
    text,
    publishedTime: parsed?.publishedTime ?? null,
    byline: clean(parsed?.byline) || null,
    siteName: clean(parsed?.siteName) || null,
    fallbackTitle,
    dates,
  };
}

/** The application/ld+json blocks of a fact-check page (a feed import); the parent reads the JSON. */
async function htmlJsonLd(html, limits) {
  const document = checkDepth(html, limits.maxDepth);
  return Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map((s) => s.textContent ?? "");
}

process.once("message", async (msg) => {
  try {
    const run = { pdf, "html-text": htmlText, "article-dom": articleDom, "html-jsonld": htmlJsonLd }[msg.kind];
    if (!run) throw new Error(`unknown parse kind ${msg.kind}`);
    const ok = await run(msg.data, msg.limits);
    process.send({ ok }, () => process.exit(0));
  } catch (e) {
    if (e instanceof Refused) process.send({ refused: { limit: e.limit, found: e.found } }, () => process.exit(0));
    // A stack exhausted by nesting the depth check did not see (it reads elements, not every node).
    else if (e instanceof RangeError && /call stack/i.test(e.message))
      process.send({ refused: { limit: "depth", found: null } }, () => process.exit(0));
    else process.send({ error: String(e?.message ?? e) }, () => process.exit(0));
  }
});
