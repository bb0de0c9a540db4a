import { describe, expect, it } from "vitest";
import { guidelinesHtml } from "@/lib/annotation/markdown";

describe("guidelines markdown", () => {
  it("renders headings below the page's, paragraphs across lines, and both kinds of list", () => {
    const html = guidelinesHtml(
      "# Title\n\nRead the claim\nand the evidence.\n\n- **TRUE**: supported\n- *HALF*\n  continued\n\n1. one\n2. two\n### Deep",
    );
    expect(html).toContain("<h3>Title</h3>");
    expect(html).toContain("<p>Read the claim\nand the evidence.</p>");
    expect(html).toMatch(
      /<ul>\s*<li><strong>TRUE<\/strong>: supported<\/li>\s*<li><em>HALF<\/em>\s+continued<\/li>\s*<\/ul>/,
    );
    expect(html).toMatch(/<ol>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ol>/);
    expect(html).toContain("<h5>Deep</h5>");
  });

  it("keeps HTML as text", () => {
    const html = guidelinesHtml('<script>alert(1)</script> and <img src=x onerror="y">\n\ninline <b onclick="x">b</b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror="y"&gt;');
    expect(html).toContain('inline &lt;b onclick="x"&gt;b&lt;/b&gt;');
    expect(html).not.toMatch(/<(script|img|b)\b/);
  });

  it("allows no links, images or attributes: a link keeps its words only", () => {
    const html = guidelinesHtml(
      "[see](javascript:alert(1)) and [site](https://example.org) ![pic](https://example.org/p.png)",
    );
    expect(html).toBe("<p>see and site </p>\n");
  });

  it("reads inline code and leaves a lone asterisk alone", () => {
    expect(guidelinesHtml("use `TRUE` * sparingly")).toBe("<p>use <code>TRUE</code> * sparingly</p>\n");
  });

  it("leaves underscores inside a word alone (the old regex parser made stop_after_round italic)", () => {
    expect(guidelinesHtml("set stop_after_round and label_probs")).toBe(
      "<p>set stop_after_round and label_probs</p>\n",
    );
  });
});
