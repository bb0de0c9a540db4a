import { describe, expect, it } from "vitest";
import { progressWriter } from "@/lib/cli/output";

/** A stream that records what is written, a terminal or not. */
function stream(isTTY: boolean) {
  const out: string[] = [];
  const s = { isTTY, write: (x: string) => (out.push(x), true) } as unknown as NodeJS.WriteStream;
  return { s, text: () => out.join("") };
}

describe("CLI progress lines", () => {
  it("written to a pipe, each is a line of its own (they ran together with \\r)", () => {
    const { s, text } = stream(false);
    const p = progressWriter(s);
    p.show("100/341 sentences");
    p.show("200/341 sentences");
    p.end();
    expect(text()).toBe("100/341 sentences\n200/341 sentences\n");
  });

  it("on a terminal, redrawn in place and finished with one newline", () => {
    const { s, text } = stream(true);
    const p = progressWriter(s);
    p.show("1/2");
    p.show("2/2");
    p.end();
    expect(text()).toBe("\r1/2\u001b[K\r2/2\u001b[K\n");
  });
});
