import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown } from "@/lib/annotation/markdown";

describe("guidelines markdown", () => {
  it("parses headings, paragraphs across lines, and both kinds of list", () => {
    const blocks = parseMarkdown(
      "# Title\n\nRead the claim\nand the evidence.\n\n- **TRUE**: supported\n- *HALF*\n  continued\n\n1. one\n2. two\n### Deep",
    );
    expect(blocks.map((b) => b.kind)).toEqual(["heading", "paragraph", "list", "list", "heading"]);
    expect(blocks[1]).toEqual({
      kind: "paragraph",
      inline: [{ kind: "text", text: "Read the claim and the evidence." }],
    });
    expect(blocks[2]).toMatchObject({
      ordered: false,
      items: [
        [
          { kind: "strong", text: "TRUE" },
          { kind: "text", text: ": supported" },
        ],
        [
          { kind: "em", text: "HALF" },
          { kind: "text", text: " continued" },
        ],
      ],
    });
    expect(blocks[3]).toMatchObject({ ordered: true });
    expect(blocks[4]).toMatchObject({ kind: "heading", level: 3 });
  });

  it("keeps HTML as text", () => {
    const blocks = parseMarkdown('<script>alert(1)</script> and <img src=x onerror="y">');
    expect(blocks).toEqual([
      { kind: "paragraph", inline: [{ kind: "text", text: '<script>alert(1)</script> and <img src=x onerror="y">' }] },
    ]);
  });

  it("reads inline code and leaves a lone asterisk alone", () => {
    expect(parseInline("use `TRUE` * sparingly")).toEqual([
      { kind: "text", text: "use " },
      { kind: "code", text: "TRUE" },
      { kind: "text", text: " * sparingly" },
    ]);
  });
});
